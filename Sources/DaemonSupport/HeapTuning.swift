import CProcessControl

/// Has glibc keep freed heap memory rather than give it back to the kernel after every free
/// at the top of the heap: every frame clock tick allocates and frees the connections' output
/// batches (megabytes at a thousand sessions), and returning the memory each time costs a
/// `brk` and page faults to take it back (docs/performance.md). Blocks up to 32 MiB come from
/// the heap too, not from `mmap` (setting the trim threshold ends glibc's own adjustment of
/// that limit). The daemon's peak resident size does not change; what it kept after a peak
/// is reused by the next one.
func keepFreedHeap() {
  _ = process_control_keep_freed_heap(64 << 20, 32 << 20)
}
