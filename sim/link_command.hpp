// telestation-sim link: the link test from the command line (docs/link-test.md) — either end:
//
//   telestation-sim link --respond ADDR:PORT [--allow ADDR,...] [--once] [--mdb FILE]
//   telestation-sim link --to HOST:PORT [--tests LIST] [--link-rate RATE] [--out DIR] [--quick] ...
#pragma once

namespace telestation::sim {

// argv[0] is the program, argv[1] "link". Returns the exit code: 0 done, 1 a test or the connection
// failed, 2 wrong arguments.
int runLinkCommand(int argc, char** argv);

} // namespace telestation::sim
