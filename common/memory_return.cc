#include "common/memory_return.h"

#include <malloc.h>

namespace fleetcap {

void MapLargeBlocksAlone() { mallopt(M_MMAP_THRESHOLD, 256 * 1024); }

void ReturnFreeMemory() { malloc_trim(0); }

}  // namespace fleetcap
