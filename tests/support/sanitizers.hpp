// Whether this build runs under AddressSanitizer or ThreadSanitizer: their builds are slower and their
// allocators keep memory, so tests skip what only the plain builds can say (pacing at high rates, peak
// memory).
#pragma once

namespace telestation::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

} // namespace telestation::test
