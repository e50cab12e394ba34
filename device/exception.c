/*
 * exception.c - the one-line report of a device exception that stderr, the
 * context's pfn_notify and the debugger all show. It formats only; it must
 * not decide anything about the exception.
 */
#include <inttypes.h>
#include <stdio.h>

#include "device/dev.h"
#include "device/lsi.h"

size_t dev_exception_format(const struct dev_exception *e, char *buf, size_t n) {
  if (!e->kernel) /* not from a kernel: a copy, a fill, an unknown command */
    return (size_t)snprintf(buf, n, "device exception: %s",
                            e->message[0] ? e->message : "device command failed");
  char where[600] = "";
  if (e->file && e->line)
    snprintf(where, sizeof where, " at %s:%u", e->file, e->line);
  else if (e->line)
    snprintf(where, sizeof where, " at line %u", e->line);
  /* memory faults name the address; the others their instruction */
  char addr[40] = "";
  if (e->trap >= LSI_TRAP_OUT_OF_BOUNDS && e->trap <= LSI_TRAP_WRITE_READ_ONLY)
    snprintf(addr, sizeof addr, " (address 0x%016" PRIx64 ")", e->address);
  else if (e->have_pc)
    snprintf(addr, sizeof addr, " (instruction %04" PRIu32 ")", e->pc);
  return (size_t)snprintf(buf, n,
                          "device exception in kernel '%s'%s, work-item (%" PRIu64 ",%" PRIu64
                          ",%" PRIu64 ") of work-group (%" PRIu64 ",%" PRIu64 ",%" PRIu64
                          ") [local (%" PRIu64 ",%" PRIu64 ",%" PRIu64 ")]: %s%s",
                          e->kernel, where, e->global_id[0], e->global_id[1], e->global_id[2],
                          e->group_id[0], e->group_id[1], e->group_id[2], e->local_id[0],
                          e->local_id[1], e->local_id[2], e->message[0] ? e->message : "fault",
                          addr);
}
