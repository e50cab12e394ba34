/*
 * cli_sig.c - Ctrl-C for the `lockstep debug` front ends. SIGINT only
 * counts and wakes a poll() through a pipe (system calls restart); the
 * front ends decide what it means: pause the kernel that runs, drop the
 * line being typed at the prompt, or say that only kernels can be paused.
 *
 * Nothing here knows debugger commands or the protocol.
 */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "debugger/cli_line.h"

static volatile sig_atomic_t count;
static int wake[2] = {-1, -1};

static void on_sigint(int sig) {
  (void)sig;
  int e = errno;
  count = 1;
  if (wake[1] >= 0) {
    ssize_t w = write(wake[1], "", 1); /* a full pipe already wakes the reader */
    (void)w;
  }
  errno = e;
}

int cli_sigint_install(void) {
  if (wake[0] < 0 && pipe2(wake, O_CLOEXEC | O_NONBLOCK)) return -1;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  return sigaction(SIGINT, &sa, NULL);
}

int cli_sigint_fd(void) {
  return wake[0];
}

int cli_sigint_seen(void) {
  return count != 0;
}

int cli_sigint_take(void) {
  int was = count != 0, got = 0;
  count = 0;
  char buf[64];
  for (ssize_t r; wake[0] >= 0 && (r = read(wake[0], buf, sizeof(buf))) > 0;)
    got = 1;
  return was || got;
}
