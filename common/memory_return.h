#pragma once
// Memory a burst of large answers used goes back to the system.
//
// glibc's malloc keeps what a thread frees in that thread's arena for its
// next allocation, and raises the size from which it maps a block of its
// own (and unmaps it when freed) to the largest mapped block freed so far:
// after 32 heavy chargebacks fleetcap-api held 3.9 GB it no longer used.

namespace fleetcap {

// From now on, every block of 256 KiB or more is mapped on its own and
// unmapped when freed (the threshold stays fixed). Once, at a daemon's start.
void MapLargeBlocksAlone();

// Gives the free pages of every arena back to the system: after work that
// allocated far more than usual (a heavy read), not on every request.
void ReturnFreeMemory();

}  // namespace fleetcap
