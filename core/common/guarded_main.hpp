// The programs' main() bodies run so that an exception nothing handled (std::bad_alloc, a bug) ends
// the program with a one-line message and exit code 70 (EX_SOFTWARE) after the stack is unwound:
// destructors run — the recorders close their segments, the catalog is brought up to date, the log is
// flushed — where std::terminate (what an exception leaving main calls) unwinds nothing with GCC.
#pragma once

#include <cstdio>
#include <exception>

namespace telestation {

inline constexpr int kExitUnexpectedError = 70;

// Returns body()'s exit code, or kExitUnexpectedError after printing "PROGRAM: stopped by an
// unexpected error: WHAT" to stderr.
template <typename Body>
int guardedMain(const char* program, Body&& body) noexcept
{
    try {
        return body();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s: stopped by an unexpected error: %s\n", program, e.what());
    } catch (...) {
        std::fprintf(stderr, "%s: stopped by an unexpected error (not a std::exception)\n", program);
    }
    return kExitUnexpectedError;
}

} // namespace telestation
