#define _GNU_SOURCE
#include "process_control.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

int process_control_set_no_new_privileges(void) {
  return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

int process_control_no_new_privileges(void) {
  return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
}

int process_control_set_parent_death_signal(int signal) {
  return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0, 0, 0);
}

int process_control_pidfd_open(pid_t pid) {
  return (int)syscall(SYS_pidfd_open, pid, 0);
}

int process_control_close_descriptors_from(int lowest) {
  if (syscall(SYS_close_range, (unsigned int)lowest, ~0U, 0) == 0) return 0;
  DIR *directory = opendir("/proc/self/fd");
  if (directory == NULL) return -1;
  int own = dirfd(directory);
  // Collect first: closing while reading the directory would skip entries.
  int descriptors[4096];
  int count = 0;
  struct dirent *entry;
  while ((entry = readdir(directory)) != NULL && count < 4096) {
    char *end;
    long value = strtol(entry->d_name, &end, 10);
    if (*end != '\0' || end == entry->d_name) continue;
    if (value >= lowest && value != own) descriptors[count++] = (int)value;
  }
  closedir(directory);
  for (int index = 0; index < count; index++) close(descriptors[index]);
  return 0;
}

int process_control_reset_signals(void) {
  struct sigaction action = {0};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  for (int number = 1; number < NSIG; number++) {
    if (number == SIGKILL || number == SIGSTOP) continue;
    // Numbers the C library reserves for itself (the real-time signals it uses internally)
    // refuse with EINVAL: nothing to reset there.
    (void)sigaction(number, &action, NULL);
  }
  sigset_t none;
  sigemptyset(&none);
  return sigprocmask(SIG_SETMASK, &none, NULL);
}

pid_t process_control_fork_exec(const char *path, char *const argv[], char *const envp[],
                                int source, int target) {
  sigset_t all, previous;
  sigfillset(&all);
  sigprocmask(SIG_SETMASK, &all, &previous);
  pid_t pid = fork();
  if (pid == 0) {
    // The child: async-signal-safe calls only until execve.
    if (source == target) {
      if (fcntl(target, F_SETFD, 0) < 0) _exit(127);
    } else if (dup2(source, target) < 0) {
      _exit(127);
    }
    process_control_reset_signals();
    execve(path, argv, envp);
    _exit(127);
  }
  int saved = errno;
  sigprocmask(SIG_SETMASK, &previous, NULL);
  errno = saved;
  return pid;
}

int process_control_keep_freed_heap(int trim, int mmap) {
  return mallopt(M_TRIM_THRESHOLD, trim) == 1 && mallopt(M_MMAP_THRESHOLD, mmap) == 1;
}

ssize_t process_control_send_with_descriptor(int socket, const void *bytes, size_t length,
                                             int descriptor) {
  struct iovec vector = {.iov_base = (void *)bytes, .iov_len = length};
  union {
    char buffer[CMSG_SPACE(sizeof(int))];
    struct cmsghdr align;
  } control;
  memset(&control, 0, sizeof control);
  struct msghdr message = {0};
  message.msg_iov = &vector;
  message.msg_iovlen = 1;
  message.msg_control = control.buffer;
  message.msg_controllen = sizeof control.buffer;
  struct cmsghdr *header = CMSG_FIRSTHDR(&message);
  header->cmsg_level = SOL_SOCKET;
  header->cmsg_type = SCM_RIGHTS;
  header->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(header), &descriptor, sizeof(int));
  return sendmsg(socket, &message, MSG_NOSIGNAL);
}

ssize_t process_control_receive_with_descriptors(int socket, void *bytes, size_t length,
                                                 int *descriptors, size_t capacity,
                                                 size_t *count) {
  *count = 0;
  struct iovec vector = {.iov_base = bytes, .iov_len = length};
  union {
    char buffer[CMSG_SPACE(sizeof(int) * 16)];
    struct cmsghdr align;
  } control;
  struct msghdr message = {0};
  message.msg_iov = &vector;
  message.msg_iovlen = 1;
  message.msg_control = control.buffer;
  message.msg_controllen = sizeof control.buffer;
  ssize_t got = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
  if (got < 0) return got;
  int overflow = (message.msg_flags & MSG_CTRUNC) != 0;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    size_t passed = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t index = 0; index < passed; index++) {
      int descriptor;
      memcpy(&descriptor, CMSG_DATA(header) + index * sizeof(int), sizeof(int));
      if (*count < capacity) {
        descriptors[(*count)++] = descriptor;
      } else {
        close(descriptor);
        overflow = 1;
      }
    }
  }
  if (overflow) {
    for (size_t index = 0; index < *count; index++) close(descriptors[index]);
    *count = 0;
    errno = EMSGSIZE;
    return -1;
  }
  return got;
}

int process_control_copy_to_memory(int descriptor, const char *name, size_t limit) {
    int copy = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (copy < 0) return -1;
    char buffer[65536];
    size_t total = 0;
    for (;;) {
        ssize_t got = pread(descriptor, buffer, sizeof buffer, (off_t)total);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) goto fail;
        if (got == 0) break;
        if ((size_t)got > limit - total) {
            errno = EFBIG;
            goto fail;
        }
        for (ssize_t written = 0; written < got;) {
            ssize_t put = write(copy, buffer + written, (size_t)(got - written));
            if (put < 0 && errno == EINTR) continue;
            if (put < 0) goto fail;
            written += put;
        }
        total += (size_t)got;
    }
    if (fcntl(copy, F_ADD_SEALS, F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) < 0)
        goto fail;
    return copy;
fail:;
    int saved = errno;
    close(copy);
    errno = saved;
    return -1;
}
