#pragma once
// Blocks SIGTERM and SIGINT in every thread (call first thing in main, before
// any thread starts) and later waits for one of them: a clean shutdown path
// without async-signal-safety concerns.

namespace fleetcap {

void BlockTerminationSignals();

// Returns the signal number once SIGTERM or SIGINT arrives.
int WaitForTerminationSignal();

}  // namespace fleetcap
