#ifndef PROCESS_CONTROL_H
#define PROCESS_CONTROL_H

#include <sys/types.h>

// Process controls Swift cannot call directly: `prctl` is variadic, `pidfd_open` and
// `close_range` are raw system calls without glibc wrappers on every target, and malloc.h is
// not part of Swift's Glibc module. Each returns what the call returns (-1 with errno set on
// failure, unless said otherwise).

/// `prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)`: execve can never grant privileges again.
int process_control_set_no_new_privileges(void);

/// `prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0)`: 1 when set.
int process_control_no_new_privileges(void);

/// `prctl(PR_SET_PDEATHSIG, signal)`: the kernel sends `signal` when the parent thread dies.
int process_control_set_parent_death_signal(int signal);

/// `pidfd_open(pid, 0)`: a descriptor that becomes readable when the process exits.
int process_control_pidfd_open(pid_t pid);

/// Closes every descriptor from `lowest` up (`close_range`, or one by one through
/// /proc/self/fd when the kernel lacks it). Returns 0, or -1 when neither worked.
int process_control_close_descriptors_from(int lowest);

/// Restores every signal's default disposition and unblocks every signal.
int process_control_reset_signals(void);

/// Starts `path` with `argv` and `envp` (NULL-terminated) in a forked child, its descriptor
/// `target` a copy of `source` (close-on-exec cleared), every signal at its default and none
/// blocked, and returns the child's pid at once. Unlike `posix_spawn`, whose vfork holds the
/// caller until the child has reached `execve` (as long as the child waits for a CPU on a
/// busy machine), it never waits for the child: a child whose `execve` fails exits with
/// status 127. The caller's signals are blocked from the fork until the child has reset them,
/// so no handler of the caller's runs in the child. Returns -1 with errno set when `fork`
/// fails.
pid_t process_control_fork_exec(const char *path, char *const argv[], char *const envp[],
                                int source, int target);

/// `mallopt(M_TRIM_THRESHOLD, trim)` and `mallopt(M_MMAP_THRESHOLD, mmap)`: freed memory at
/// the top of the heap is given back to the kernel only beyond `trim` bytes, and blocks below
/// `mmap` bytes come from the heap. Returns 1 when glibc took both, 0 otherwise.
int process_control_keep_freed_heap(int trim, int mmap);

/// Sends `length` bytes on the stream socket `socket` with the descriptor `descriptor`
/// attached (`SCM_RIGHTS`, on the first byte), `MSG_NOSIGNAL`. Returns what `sendmsg`
/// returns: the bytes written (the descriptor went with the first), or -1 with errno set.
ssize_t process_control_send_with_descriptor(int socket, const void *bytes, size_t length,
                                             int descriptor);

/// Reads at most `length` bytes from the stream socket `socket` with `recvmsg`, taking the
/// descriptors passed with them (`SCM_RIGHTS`, received close-on-exec) into `descriptors`, at
/// most `capacity`; `*count` is set to how many. Returns the bytes read (0 at end of file), or
/// -1 with errno set; `EMSGSIZE` when more descriptors came than `capacity` (those that did
/// not fit are closed by the kernel, the ones taken are closed here).
ssize_t process_control_receive_with_descriptors(int socket, void *bytes, size_t length,
                                                 int *descriptors, size_t capacity,
                                                 size_t *count);

/// A sealed in-memory copy of the whole file open as `descriptor` (read from offset 0 with
/// `pread`, so the descriptor's offset is left alone): `memfd_create(name, MFD_CLOEXEC |
/// MFD_ALLOW_SEALING)`, filled, then sealed against writes, growth and shrinking. The copy
/// belongs to this process whoever owns the file, so it can be opened again by path
/// (`/proc/self/fd/N`) where the file itself cannot. Returns the new descriptor, or -1 with
/// errno set (`EFBIG` past `limit` bytes).
int process_control_copy_to_memory(int descriptor, const char *name, size_t limit);

#endif
