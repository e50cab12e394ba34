/*
 * test_dbg_mi.c - the engine's `^mi` records (debugger/dbg_mi.c) are valid
 * JSON whatever they carry: a source file whose name is no UTF-8, command
 * text with quotes, control characters and ill-formed UTF-8, a long
 * expression. `lockstep debug` runs a command file on a kernel in a
 * folder of its own; every record line is parsed strictly (jansson refuses
 * ill-formed UTF-8), and the text that was no UTF-8 reads back with one
 * U+FFFD per ill-formed part.
 *
 * The command is the build's `lockstep` (LOCKSTEP_CLI), or the one the
 * environment variable LOCKSTEP_CLI names.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/check_util.h"

#define FFFD "\xef\xbf\xbd"

static const char kernel[] =
    "__kernel void k(__global int *out, __global const float *in, int n) {\n"
    "  __local int tmp[4];\n"
    "  int gid = get_global_id(0);\n"
    "  int lid = get_local_id(0);\n"
    "  tmp[lid] = gid * 10 + (int)in[gid];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  int v = tmp[(lid + 1) % 4];\n"
    "  out[gid] = v + n;\n"
    "}\n";

static const char spec[] = "buffer int 8 fill 0\nbuffer float 8 range 0 1\nscalar int 3\n";

static void write_file(const char *dir, const char *name, const char *text, size_t n) {
  char path[512];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  ck_assert_ptr_nonnull(f);
  ck_assert_uint_eq(fwrite(text, 1, n, f), n);
  fclose(f);
}

static const char *cli(void) {
  const char *c = getenv("LOCKSTEP_CLI");
  return c && *c ? c : LOCKSTEP_CLI;
}

/* Runs the commands in a new folder with the kernel in the file cl; returns
 * what `lockstep debug` printed. */
static char *run_commands(const char *cl, const char *cmds, size_t ncmds) {
  char dir[] = "/tmp/lockstep-mi-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  write_file(dir, cl, kernel, sizeof(kernel) - 1);
  write_file(dir, "k.spec", spec, sizeof(spec) - 1);
  write_file(dir, "k.inp", cmds, ncmds);
  char out[600];
  snprintf(out, sizeof(out), "%s/out", dir);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    if (chdir(dir) || !freopen("out", "w", stdout)) _exit(126);
    dup2(1, 2);
    execl(cli(), cli(), "debug", "--kernel", cl, "--name", "k", "--global", "8", "--local", "4",
          "--spec", "k.spec", "-x", "k.inp", (char *)NULL);
    _exit(127);
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
    ;
  size_t n;
  char *text = cu_read_file(out, &n);
  ck_assert_ptr_nonnull(text);
  ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "lockstep debug failed (0x%x): %.2000s", st,
                text);
  const char *const files[] = {cl, "k.spec", "k.inp", "out"};
  for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
    char p[600];
    snprintf(p, sizeof(p), "%s/%s", dir, files[i]);
    unlink(p);
  }
  rmdir(dir);
  return text;
}

/* Every record line, parsed strictly, into one array. */
static json_t *records(const char *text) {
  json_t *all = json_array();
  for (const char *l = text; l && *l;) {
    const char *e = strchr(l, '\n');
    size_t n = e ? (size_t)(e - l) : strlen(l);
    if (n > 4 && !strncmp(l, "^mi ", 4)) {
      json_error_t err;
      json_t *r = json_loadb(l + 4, n - 4, 0, &err);
      ck_assert_msg(r != NULL, "a record is no valid JSON (%s): %.*s", err.text,
                    (int)(n > 300 ? 300 : n), l);
      json_array_append_new(all, r);
    }
    l = e ? e + 1 : NULL;
  }
  return all;
}

/* The first record with this member. */
static json_t *find(const json_t *all, const char *key) {
  for (size_t i = 0; i < json_array_size(all); i++)
    if (json_object_get(json_array_get(all, i), key)) return json_array_get(all, i);
  ck_abort_msg("no record with '%s'", key);
  return NULL;
}

static const char *str(const json_t *r, const char *key) {
  const char *s = json_string_value(json_object_get(r, key));
  ck_assert_msg(s != NULL, "no string '%s'", key);
  return s;
}

START_TEST(a_file_name_that_is_no_utf8) {
  static const char cmds[] = "mi on\nbreak 7\nrun\nmi frame 0\nmi threads\ncontinue\nquit\n";
  char *text = run_commands("k\xff.cl", cmds, sizeof(cmds) - 1);
  json_t *all = records(text);
  ck_assert_str_eq(str(find(all, "launch"), "file"), "k" FFFD ".cl");
  ck_assert_str_eq(str(find(all, "item"), "file"), "k" FFFD ".cl");
  ck_assert_str_eq(str(find(all, "thread"), "file"), "k" FFFD ".cl");
  json_t *stop = find(all, "stop");
  ck_assert_str_eq(str(stop, "stop"), "breakpoint");
  ck_assert_str_eq(str(stop, "file"), "k" FFFD ".cl");
  ck_assert_int_eq(json_integer_value(json_object_get(stop, "line")), 7);
  json_decref(all);
  free(text);
}
END_TEST

/* The name of an eval record is the command's text, whatever it holds. */
START_TEST(command_text_with_quotes_controls_and_bad_bytes) {
  static const char cmds[] = "mi on\nbreak 7\nrun\ncontinue\n"
                             "mi eval 0 x\xff\"\x01\\\n"
                             "mi eval 0 \xc0\x80\xed\xa0\x80\n"
                             "mi eval 0 gid + \xf0\x9f\x98\x80\n"
                             "quit\n";
  char *text = run_commands("k.cl", cmds, sizeof(cmds) - 1);
  json_t *all = records(text);
  size_t k = 0;
  static const char *const names[] = {"x" FFFD "\"\x01\\", FFFD FFFD FFFD FFFD FFFD,
                                      "gid + \xf0\x9f\x98\x80"};
  for (size_t i = 0; i < json_array_size(all); i++) {
    json_t *r = json_array_get(all, i);
    if (!json_object_get(r, "name")) continue;
    ck_assert_uint_lt(k, 3);
    ck_assert_str_eq(str(r, "name"), names[k]);
    ck_assert_ptr_nonnull(json_object_get(r, "error")); /* none of them evaluates */
    k++;
  }
  ck_assert_uint_eq(k, 3);
  json_decref(all);
  free(text);
}
END_TEST

START_TEST(a_long_expression_is_one_record) {
  enum { N = 3000 };
  char *cmds = malloc(N * 4 + 128);
  size_t n = (size_t)sprintf(cmds, "mi on\nbreak 7\nrun\ncontinue\nmi eval 0 gid");
  for (int i = 0; i < N; i++)
    n += (size_t)sprintf(cmds + n, "+\x01");
  n += (size_t)sprintf(cmds + n, "\nquit\n");
  char *text = run_commands("k.cl", cmds, n);
  json_t *all = records(text);
  const char *name = str(find(all, "name"), "name");
  ck_assert_uint_eq(strlen(name), 3 + 2 * N);
  json_decref(all);
  free(text);
  free(cmds);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dbg_mi");
  CU_ADD(s, a_file_name_that_is_no_utf8);
  CU_ADD(s, command_text_with_quotes_controls_and_bad_bytes);
  CU_ADD(s, a_long_expression_is_one_record);
  return cu_run(s);
}
