/*
 * dbg_cmdnames.c - the command names for Tab completion (dbg_command_name)
 * until the engine's command table gives them: a weak definition, so the
 * table's own (strong) one takes its place at link time. Remove this file
 * once the table defines dbg_command_name.
 *
 * The names are those dbg_engine.c's dispatcher accepts in full, except the
 * records for programs (`mi`).
 */
#include <stddef.h>

#include "debugger/dbg.h"

__attribute__((weak)) const char *dbg_command_name(unsigned i) {
  static const char *const names[] = {
      "advance", "backtrace", "break",  "continue", "delete",    "directory", "disable",
      "display", "down",      "edit",   "enable",   "finish",    "frame",     "help",
      "info",    "list",      "next",   "print",    "ptype",     "quit",      "run",
      "scope",   "set",       "start",  "step",     "tbreak",    "undisplay", "until",
      "up",      "watch",     "whatis", "where",    "workgroup", "workitem",  "x",
  };
  return i < sizeof(names) / sizeof(names[0]) ? names[i] : NULL;
}
