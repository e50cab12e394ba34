/*
 * test_dap_json.c - the JSON edge cases of `lockstep dap` (debugger/dap.c,
 * dap_req.c, dap_json.c), driven through the real command over pipes: deep
 * nesting, lone surrogates, U+0000, ill-formed UTF-8 and huge numbers in
 * requests are answered with an error response and the adapter reads on; a
 * surrogate pair round-trips; what a program prints that is no UTF-8 (or a
 * character cut by a pipe read) still gives valid JSON; over-long strings
 * are refused, never cut short. Every message the adapter writes is parsed
 * strictly (jansson refuses ill-formed UTF-8 and lone surrogates), and the
 * adapter must exit normally when its input ends. The initialize response
 * announces what the engine's command table says (dbg_dap_capability).
 *
 * The command is the build's `lockstep` (LOCKSTEP_CLI), or the one the
 * environment variable LOCKSTEP_CLI names.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "debugger/dbg.h"
#include "util/check_util.h"

struct dap {
  pid_t pid;
  int to, from; /* its stdin, its stdout */
  char *buf;
  size_t len, cap;
  int seq;
};

static const char *cli(void) {
  const char *c = getenv("LOCKSTEP_CLI");
  return c && *c ? c : LOCKSTEP_CLI;
}

static void dap_start(struct dap *d) {
  int in[2], out[2];
  ck_assert_int_eq(pipe(in), 0);
  ck_assert_int_eq(pipe(out), 0);
  signal(SIGPIPE, SIG_IGN);
  memset(d, 0, sizeof(*d));
  d->pid = fork();
  ck_assert_int_ge(d->pid, 0);
  if (d->pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    close(in[1]);
    close(out[0]);
    execl(cli(), cli(), "dap", (char *)NULL);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  d->to = in[1];
  d->from = out[0];
  d->seq = 1;
}

/* Ends the input; the adapter must exit with status 0 (no crash, no
 * sanitizer report). */
static void dap_finish(struct dap *d) {
  close(d->to);
  int st = 0;
  while (waitpid(d->pid, &st, 0) < 0 && errno == EINTR)
    ;
  close(d->from);
  free(d->buf);
  ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0,
                "the adapter did not exit normally (status 0x%x)", st);
}

static void put_raw(struct dap *d, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(d->to, p, n);
    if (w < 0 && errno == EINTR) continue;
    ck_assert_msg(w > 0, "the adapter stopped reading: %s", strerror(errno));
    p += w;
    n -= (size_t)w;
  }
}

/* One framed message with body[0, n). */
static void put_body(struct dap *d, const char *body, size_t n) {
  char hdr[64];
  int h = snprintf(hdr, sizeof(hdr), "Content-Length: %zu\r\n\r\n", n);
  put_raw(d, hdr, (size_t)h);
  put_raw(d, body, n);
}

static void put_str(struct dap *d, const char *body) {
  put_body(d, body, strlen(body));
}

/* A request with a seq of its own; args is JSON text or NULL. */
static int request(struct dap *d, const char *command, const char *args) {
  char *m = NULL;
  int seq = d->seq++;
  ck_assert_int_ge(asprintf(&m, "{\"seq\":%d,\"type\":\"request\",\"command\":\"%s\"%s%s}", seq,
                            command, args ? ",\"arguments\":" : "", args ? args : ""),
                   0);
  put_str(d, m);
  free(m);
  return seq;
}

/* The next message, parsed strictly (U+0000 allowed: output may hold it). */
static json_t *next_msg(struct dap *d) {
  for (;;) {
    char *end = d->len ? memmem(d->buf, d->len, "\r\n\r\n", 4) : NULL;
    if (end) {
      size_t hlen = (size_t)(end - d->buf);
      ck_assert_msg(hlen > 16 && !strncmp(d->buf, "Content-Length: ", 16),
                    "the adapter framed no Content-Length");
      size_t n = strtoul(d->buf + 16, NULL, 10);
      if (d->len >= hlen + 4 + n) {
        json_error_t e;
        json_t *v = json_loadb(end + 4, n, JSON_ALLOW_NUL, &e);
        ck_assert_msg(v != NULL, "the adapter wrote no valid JSON (%s): %.*s", e.text,
                      (int)(n > 300 ? 300 : n), end + 4);
        memmove(d->buf, d->buf + hlen + 4 + n, d->len - hlen - 4 - n);
        d->len -= hlen + 4 + n;
        return v;
      }
    }
    struct pollfd p = {d->from, POLLIN, 0};
    int r = poll(&p, 1, 30000);
    ck_assert_msg(r > 0, "no answer from the adapter");
    if (d->cap - d->len < 65536) {
      d->cap = d->cap ? d->cap * 2 : 131072;
      d->buf = realloc(d->buf, d->cap);
      ck_assert_ptr_nonnull(d->buf);
    }
    ssize_t got = read(d->from, d->buf + d->len, d->cap - d->len);
    ck_assert_msg(got > 0, "the adapter closed its output (crashed?)");
    d->len += (size_t)got;
  }
}

/* The next response (events before it are dropped). */
static json_t *response(struct dap *d) {
  for (;;) {
    json_t *m = next_msg(d);
    if (!strcmp(json_string_value(json_object_get(m, "type")) ?: "", "response")) return m;
    json_decref(m);
  }
}

static int success(const json_t *r) {
  return json_is_true(json_object_get(r, "success"));
}

static const char *message(const json_t *r) {
  return json_string_value(json_object_get(r, "message")) ?: "";
}

/* A request that must fail with a message holding want; the adapter must
 * then still answer. */
static void refused_raw(struct dap *d, const char *body, size_t n, const char *want) {
  put_body(d, body, n);
  json_t *r = response(d);
  ck_assert_msg(!success(r), "accepted: %.200s", body);
  ck_assert_msg(strstr(message(r), want), "for %.120s: message '%s' lacks '%s'", body, message(r),
                want);
  json_decref(r);
  int seq = request(d, "threads", NULL);
  r = response(d);
  ck_assert_msg(success(r), "no answer after %.120s", body);
  ck_assert_int_eq(json_integer_value(json_object_get(r, "request_seq")), seq);
  json_decref(r);
}

static void refused(struct dap *d, const char *body, const char *want) {
  refused_raw(d, body, strlen(body), want);
}

START_TEST(deep_nesting_is_an_error_response) {
  struct dap d;
  dap_start(&d);
  enum { N = 10000 };
  char *t = malloc(6 * N + 64);
  memset(t, '[', N); /* never closed */
  refused_raw(&d, t, N, "malformed JSON");
  memset(t + N, ']', N); /* closed, but too deep */
  refused_raw(&d, t, 2 * N, "malformed JSON");
  /* objects, and just past the adapter's own limit inside a request */
  size_t n = 0;
  for (int i = 0; i < N; i++)
    n += (size_t)sprintf(t + n, "{\"a\":");
  t[n++] = '1';
  refused_raw(&d, t, n, "malformed JSON");
  n = (size_t)sprintf(t, "{\"seq\":1,\"type\":\"request\",\"command\":\"threads\",\"x\":");
  for (int i = 0; i < 70; i++)
    t[n++] = '[';
  for (int i = 0; i < 70; i++)
    t[n++] = ']';
  t[n++] = '}';
  refused_raw(&d, t, n, "nesting");
  free(t);
  dap_finish(&d);
}
END_TEST

/* A breakpoint in a file with this path: the response's source. */
static json_t *bp_source(struct dap *d, const char *path_json) {
  char args[512];
  snprintf(args, sizeof(args), "{\"source\":{\"path\":\"%s\"},\"breakpoints\":[{\"line\":3}]}",
           path_json);
  request(d, "setBreakpoints", args);
  json_t *r = response(d);
  ck_assert_msg(success(r), "setBreakpoints failed: %s", message(r));
  json_t *bps = json_object_get(json_object_get(r, "body"), "breakpoints");
  json_t *src = json_object_get(json_array_get(bps, 0), "source");
  ck_assert_ptr_nonnull(src);
  json_incref(src);
  json_decref(r);
  return src;
}

START_TEST(surrogate_pair_round_trips) {
  struct dap d;
  dap_start(&d);
  static const char emoji[] = "\xf0\x9f\x98\x80"; /* U+1F600 */
  for (int raw = 0; raw < 2; raw++) {
    json_t *src =
        bp_source(&d, raw ? "/nonexistent/\xf0\x9f\x98\x80.cl" : "/nonexistent/\\ud83d\\ude00.cl");
    char want[64];
    snprintf(want, sizeof(want), "/nonexistent/%s.cl", emoji);
    ck_assert_str_eq(json_string_value(json_object_get(src, "path")), want);
    snprintf(want, sizeof(want), "%s.cl", emoji);
    ck_assert_str_eq(json_string_value(json_object_get(src, "name")), want);
    json_decref(src);
  }
  dap_finish(&d);
}
END_TEST

/* A lone surrogate is refused (JSON text holding one names no character);
 * so is a high surrogate followed by anything but a low one. */
START_TEST(lone_surrogates_are_refused) {
  struct dap d;
  dap_start(&d);
  static const char *const paths[] = {"/nonexistent/\\ud800.cl", "/nonexistent/\\udc00.cl",
                                      "/nonexistent/\\ud800\\u0041.cl",
                                      "/nonexistent/\\ud800\\ud800.cl", "/nonexistent/\\ud800"};
  for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
    char m[512];
    snprintf(m, sizeof(m),
             "{\"seq\":5,\"type\":\"request\",\"command\":\"setBreakpoints\",\"arguments\":{"
             "\"source\":{\"path\":\"%s\"},\"breakpoints\":[{\"line\":3}]}}",
             paths[i]);
    refused(&d, m, "malformed JSON");
  }
  dap_finish(&d);
}
END_TEST

/* U+0000 would cut a C string short: a request holding one is refused, not
 * run as the request before the NUL. */
START_TEST(embedded_nul_is_refused) {
  struct dap d;
  dap_start(&d);
  refused(&d, "{\"seq\":3,\"type\":\"request\",\"command\":\"threads\\u0000x\"}", "U+0000");
  refused(&d,
          "{\"seq\":4,\"type\":\"request\",\"command\":\"setBreakpoints\",\"arguments\":{"
          "\"source\":{\"path\":\"/nonexistent/a\\u0000b.cl\"},\"breakpoints\":[{\"line\":3}]}}",
          "U+0000");
  /* a raw NUL byte is no JSON at all */
  static const char raw[] = "{\"seq\":5,\"type\":\"request\",\"command\":\"threads\0\"}";
  refused_raw(&d, raw, sizeof(raw) - 1, "malformed JSON");
  dap_finish(&d);
}
END_TEST

START_TEST(invalid_utf8_in_a_request_is_refused) {
  struct dap d;
  dap_start(&d);
  static const char *const bad[] = {"\xff", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                                    "\xe2\x82"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
    char m[512];
    snprintf(m, sizeof(m),
             "{\"seq\":6,\"type\":\"request\",\"command\":\"setBreakpoints\",\"arguments\":{"
             "\"source\":{\"path\":\"/nonexistent/%s.cl\"},\"breakpoints\":[{\"line\":3}]}}",
             bad[i]);
    refused(&d, m, "malformed JSON");
  }
  dap_finish(&d);
}
END_TEST

/* Runs printf(1) under the adapter with these arguments (JSON text) and
 * returns all it printed, as the output events give it. */
static char *program_output(const char *args_json, size_t *len) {
  struct dap d;
  dap_start(&d);
  char *a = NULL;
  ck_assert_int_ge(asprintf(&a, "{\"program\":\"printf\",\"args\":%s}", args_json), 0);
  request(&d, "launch", a);
  free(a);
  char *out = NULL;
  size_t n = 0;
  for (;;) {
    json_t *m = next_msg(&d);
    const char *type = json_string_value(json_object_get(m, "type"));
    const char *ev = json_string_value(json_object_get(m, "event"));
    if (!strcmp(type, "response")) ck_assert_msg(success(m), "launch failed: %s", message(m));
    json_t *b = json_object_get(m, "body");
    if (ev && !strcmp(ev, "output") &&
        !strcmp(json_string_value(json_object_get(b, "category")), "stdout")) {
      json_t *o = json_object_get(b, "output");
      size_t k = json_string_length(o);
      out = realloc(out, n + k + 1);
      memcpy(out + n, json_string_value(o), k);
      n += k;
      out[n] = 0;
    }
    int done = ev && !strcmp(ev, "terminated");
    json_decref(m);
    if (done) break;
  }
  dap_finish(&d);
  *len = n;
  return out;
}

#define FFFD "\xef\xbf\xbd"

/* Ill-formed UTF-8, control characters and NUL in what the program prints:
 * valid JSON, each ill-formed part one U+FFFD, everything else kept. */
START_TEST(program_output_that_is_no_utf8) {
  size_t n;
  char *out = program_output(
      "[\"%b\", \"a\\\\0300\\\\0200b\\\\0355\\\\0240\\\\0200c\\\\0364\\\\0220\\\\0200\\\\0200"
      "d\\\\0001\\\\0177\\\\0000e\\\"\\\\\\\\f\\\\0342\\\\0202\"]",
      &n);
  static const char want[] =
      "a" FFFD FFFD "b" FFFD FFFD FFFD "c" FFFD FFFD FFFD FFFD "d\x01\x7f\0e\"\\f" FFFD;
  ck_assert_uint_eq(n, sizeof(want) - 1);
  ck_assert_mem_eq(out, want, n);
  free(out);
}
END_TEST

/* printf's stdout buffer is 4096 bytes: the emoji is cut between two reads. */
START_TEST(a_character_cut_by_a_read_round_trips) {
  char args[4200] = "[\"%s\", \"";
  size_t k = strlen(args);
  memset(args + k, 'a', 4095);
  strcpy(args + k + 4095, "\\ud83d\\ude00z\"]");
  size_t n;
  char *out = program_output(args, &n);
  ck_assert_uint_eq(n, 4095 + 4 + 1);
  ck_assert_mem_eq(out + 4095, "\xf0\x9f\x98\x80z", 5);
  free(out);
}
END_TEST

START_TEST(wrong_types_and_huge_numbers_are_error_responses) {
  struct dap d;
  dap_start(&d);
  static const struct {
    const char *body, *want;
  } cases[] = {
      {"{\"seq\":1e400,\"type\":\"request\",\"command\":\"threads\"}", ""},
      {"{\"seq\":123456789012345678901234567890,\"type\":\"request\",\"command\":\"threads\"}", ""},
      {"{\"seq\":9007199254740993,\"type\":\"request\",\"command\":\"threads\"}", "not a request"},
      {"{\"seq\":1.5,\"type\":\"request\",\"command\":\"threads\"}", "not a request"},
      {"{\"seq\":\"1\",\"type\":\"request\",\"command\":\"threads\"}", "not a request"},
      {"{\"seq\":1,\"type\":\"request\",\"command\":5}", "not a request"},
      {"{\"seq\":1,\"seq\":2,\"type\":\"request\",\"command\":\"threads\"}", "duplicate"},
      {"{\"seq\":2,\"type\":\"request\",\"command\":\"launch\",\"arguments\":{\"program\":"
       "\"true\",\"workItem\":[1e300]}}",
       "non-negative integers"},
      {"{\"seq\":2,\"type\":\"request\",\"command\":\"launch\",\"arguments\":{\"program\":"
       "\"true\",\"workItem\":[1.5]}}",
       "non-negative integers"},
      {"{\"seq\":2,\"type\":\"request\",\"command\":\"launch\",\"arguments\":{\"program\":"
       "\"true\",\"workItem\":[\"3\"]}}",
       "non-negative integers"},
      {"{\"seq\":2,\"type\":\"request\",\"command\":\"launch\",\"arguments\":{\"program\":"
       "\"true\",\"env\":{\"X\":5}}}",
       "'env'"},
      {"{\"seq\":2,\"type\":\"request\",\"command\":\"launch\",\"arguments\":{\"program\":"
       "\"true\",\"env\":{\"A=B\":\"1\"}}}",
       "'env'"},
      {"{\"seq\":2,\"type\":\"request\",\"command\":\"launch\",\"arguments\":{\"program\":"
       "\"true\",\"sourceDirs\":\"/tmp\"}}",
       "sourceDirs"},
      {"{\"seq\":3,\"type\":\"request\",\"command\":\"setBreakpoints\",\"arguments\":{"
       "\"source\":{\"path\":\"/nonexistent/x.cl\"},\"breakpoints\":[{\"line\":1e300}]}}",
       "positive 'line'"},
      {"{\"seq\":3,\"type\":\"request\",\"command\":\"setBreakpoints\",\"arguments\":{"
       "\"source\":{\"path\":\"/nonexistent/x.cl\"},\"breakpoints\":[{\"line\":4294967297}]}}",
       "positive 'line'"},
      {"{\"seq\":3,\"type\":\"request\",\"command\":\"setBreakpoints\",\"arguments\":{"
       "\"source\":{\"path\":\"/nonexistent/x.cl\"},\"breakpoints\":[7]}}",
       "positive 'line'"},
      {"{\"seq\":4,\"type\":\"request\",\"command\":\"stackTrace\",\"arguments\":{"
       "\"threadId\":9223372036854775807}}",
       "not running"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
    refused(&d, cases[i].body, cases[i].want);
  dap_finish(&d);
}
END_TEST

/* Long strings are kept whole or refused, never cut short into another
 * path or condition. */
START_TEST(long_strings_are_never_cut_short) {
  struct dap d;
  dap_start(&d);
  enum { N = 2000 };
  char *m = malloc(N + 512), *p = malloc(N + 1);
  memset(p, 'a', N);
  p[0] = '/';
  p[N] = 0;
  snprintf(m, N + 512,
           "{\"seq\":1,\"type\":\"request\",\"command\":\"setBreakpoints\",\"arguments\":{"
           "\"source\":{\"path\":\"%s\"},\"breakpoints\":[{\"line\":3}]}}",
           p);
  put_str(&d, m);
  json_t *r = response(&d);
  if (success(r)) { /* then the path it echoes is the one sent */
    json_t *bps = json_object_get(json_object_get(r, "body"), "breakpoints");
    json_t *src = json_object_get(json_array_get(bps, 0), "source");
    const char *got = json_string_value(json_object_get(src, "path"));
    ck_assert_msg(got && !strcmp(got, p), "the path came back cut to %zu of %d bytes",
                  got ? strlen(got) : 0, N);
  }
  json_decref(r);
  /* a condition too long for the engine's command: not verified, and says why */
  char cond[400];
  memset(cond, ' ', sizeof(cond) - 4);
  memcpy(cond + sizeof(cond) - 4, "1>0", 4);
  snprintf(m, N + 512,
           "{\"source\":{\"path\":\"%s/basic.cl\"},\"breakpoints\":[{\"line\":10,"
           "\"condition\":\"x == 1 &&%s\"}]}",
           getcwd(p, N), cond);
  request(&d, "setBreakpoints", m);
  r = response(&d);
  ck_assert_msg(success(r), "%s", message(r));
  json_t *bp = json_array_get(json_object_get(json_object_get(r, "body"), "breakpoints"), 0);
  ck_assert_msg(!json_is_true(json_object_get(bp, "verified")),
                "a condition cut short was accepted");
  ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(bp, "message")), "too long"));
  json_decref(r);
  /* a megabyte in a request: an answer, and it still reads on */
  size_t big = 1 << 20;
  char *e = malloc(big + 128);
  int k = sprintf(e, "{\"seq\":9,\"type\":\"request\",\"command\":\"");
  memset(e + k, 'x', big);
  strcpy(e + k + big, "\"}");
  refused(&d, e, "unknown or unsupported request 'xxxx");
  free(e);
  free(m);
  free(p);
  dap_finish(&d);
}
END_TEST

/* The capabilities are the command table's, each true, and besides them
 * only what the adapter itself must say: it steps by statement only. */
START_TEST(capabilities_are_the_command_tables) {
  struct dap d;
  dap_start(&d);
  request(&d, "initialize", "{\"adapterID\":\"lockstep\"}");
  json_t *r = response(&d);
  ck_assert_msg(success(r), "%s", message(r));
  json_t *body = json_object_get(r, "body");
  unsigned n = 0;
  for (const char *c; (c = dbg_dap_capability(n)); n++)
    ck_assert_msg(json_is_true(json_object_get(body, c)), "%s is not announced", c);
  ck_assert_uint_gt(n, 0);
  ck_assert_msg(json_is_false(json_object_get(body, "supportsSteppingGranularity")),
                "supportsSteppingGranularity is not false");
  const char *key;
  json_t *v;
  json_object_foreach(body, key, v) {
    unsigned i = 0;
    while (dbg_dap_capability(i) && strcmp(dbg_dap_capability(i), key))
      i++;
    ck_assert_msg(dbg_dap_capability(i) || !strcmp(key, "supportsSteppingGranularity"),
                  "%s is announced but no command provides it", key);
  }
  json_decref(r);
  dap_finish(&d);
}
END_TEST

int main(void) {
  Suite *s = suite_create("dap_json");
  CU_ADD(s, capabilities_are_the_command_tables);
  CU_ADD(s, deep_nesting_is_an_error_response);
  CU_ADD(s, surrogate_pair_round_trips);
  CU_ADD(s, lone_surrogates_are_refused);
  CU_ADD(s, embedded_nul_is_refused);
  CU_ADD(s, invalid_utf8_in_a_request_is_refused);
  CU_ADD(s, program_output_that_is_no_utf8);
  CU_ADD(s, a_character_cut_by_a_read_round_trips);
  CU_ADD(s, wrong_types_and_huge_numbers_are_error_responses);
  CU_ADD(s, long_strings_are_never_cut_short);
  return cu_run(s);
}
