/*
 * dump.c - the human-readable listing of a translated program: LSI code
 * interleaved with the source lines, the microkernels with their flow
 * control, and the symbols. What `lockstep compile --dump` prints.
 *
 * Output only; it never changes the program.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/cc.h"
#include "compiler/cc_debug.h"
#include "compiler/cc_int.h"
#include "device/builtins.h"

static const char *const sreg_names[LSI_NUM_SREGS] = {
    "global_id.x",        "global_id.y",      "global_id.z",        "local_id.x",
    "local_id.y",         "local_id.z",       "group_id.x",         "group_id.y",
    "group_id.z",         "global_size.x",    "global_size.y",      "global_size.z",
    "local_size.x",       "local_size.y",     "local_size.z",       "enq_local_size.x",
    "enq_local_size.y",   "enq_local_size.z", "num_groups.x",       "num_groups.y",
    "num_groups.z",       "global_offset.x",  "global_offset.y",    "global_offset.z",
    "work_dim",           "local_linear_id",  "global_linear_id",   "sub_group_id",
    "sub_group_local_id", "sub_group_size",   "max_sub_group_size", "num_sub_groups",
    "private_base"};

const char *cc_space_name(unsigned space) {
  switch (space) {
  case LSI_SPACE_GLOBAL: return "global";
  case LSI_SPACE_CONSTANT: return "constant";
  case LSI_SPACE_LOCAL: return "local";
  case LSI_SPACE_PRIVATE: return "private";
  case LSI_SPACE_GENERIC: return "generic";
  default: return "?";
  }
}

static int reg_str(char *b, size_t n, const struct lsi_kernel *k, uint32_t r) {
  if (r < k->nconst) {
    const struct lsi_const *c = &k->consts[r];
    if (c->reloc == LSI_CONST_UNDEF) return snprintf(b, n, "undef");
    if (c->reloc) return snprintf(b, n, "data+%" PRIu64, c->value);
    if (c->value < 4096) return snprintf(b, n, "#%" PRIu64, c->value);
    return snprintf(b, n, "#0x%" PRIx64, c->value);
  }
  return snprintf(b, n, "r%u", r);
}

void cc_format_insn(char *buf, size_t len, const struct lsi_kernel *k, uint32_t pc) {
  const lsi_insn *in = &k->code[pc];
  char d[40], a[40], b[40], c[40];
  reg_str(d, sizeof(d), k, in->d);
  reg_str(a, sizeof(a), k, in->a);
  reg_str(b, sizeof(b), k, in->b);
  reg_str(c, sizeof(c), k, in->c);
  const char *name = in->op < LSI_NUM_OPS ? lsi_op_name[in->op] : "???";
  switch (in->op < LSI_NUM_OPS ? lsi_op_format[in->op] : FMT_NONE) {
  case FMT_RR: snprintf(buf, len, "%-14s %s, %s", name, d, a); break;
  case FMT_RRR: snprintf(buf, len, "%-14s %s, %s, %s", name, d, a, b); break;
  case FMT_RRRR: snprintf(buf, len, "%-14s %s, %s, %s, %s", name, d, a, b, c); break;
  case FMT_RI:
    if (in->op == LSI_SREG)
      snprintf(buf, len, "%-14s %s, %s", name, d,
               (uint64_t)in->imm < LSI_NUM_SREGS ? sreg_names[in->imm] : "?");
    else
      snprintf(buf, len, "%-14s %s, %" PRId64, name, d, in->imm);
    break;
  case FMT_RRI:
    if (in->op == LSI_SEXT)
      snprintf(buf, len, "%-14s %s, %s, i%u->i%u", name, d, a, (unsigned)(in->imm & 0xff),
               (unsigned)(in->imm >> 8));
    else
      snprintf(buf, len, "%-14s %s, %s, %" PRId64, name, d, a, in->imm);
    break;
  case FMT_RRRI: snprintf(buf, len, "%-14s %s, %s, %s, %" PRId64, name, d, a, b, in->imm); break;
  case FMT_LD:
    snprintf(buf, len, "%-14s %s, %s[%s%+" PRId64 "]", name, d, cc_space_name(in->aux), a, in->imm);
    break;
  case FMT_ST:
    snprintf(buf, len, "%-14s %s[%s%+" PRId64 "], %s", name, cc_space_name(in->aux), a, in->imm, b);
    break;
  case FMT_ATOM:
    snprintf(buf, len, "%-14s %s, %s[%s], %s, %s", name, d, cc_space_name(in->aux), a, b, c);
    break;
  case FMT_BR: snprintf(buf, len, "%-14s @%" PRId64, name, in->imm); break;
  case FMT_BRP: snprintf(buf, len, "%-14s %s, @%" PRId64, name, a, in->imm); break;
  case FMT_CALL: {
    int o = snprintf(buf, len, "%-14s %s, %s(", name, d,
                     in->imm >= 0 && in->imm < lsi_builtin_count() ? lsi_builtin_name((int)in->imm)
                                                                   : "?");
    for (uint32_t i = 0; i < in->b && o < (int)len; i++) {
      char r[40];
      reg_str(r, sizeof(r), k, in->a + i < k->narglist ? k->arglist[in->a + i] : 0);
      o += snprintf(buf + o, len - (size_t)o, "%s%s", i ? ", " : "", r);
    }
    if (o < (int)len) snprintf(buf + o, len - (size_t)o, ")");
    break;
  }
  default:
    if (in->op == LSI_BAR || in->op == LSI_SGBAR || in->op == LSI_FENCE)
      snprintf(buf, len, "%-14s flags=%" PRId64, name, in->imm);
    else
      snprintf(buf, len, "%s", name);
  }
}

/* Splits source into lines (pointers into a copy). */
static char **split_lines(const char *src, unsigned *n, char **copy) {
  *n = 0;
  *copy = NULL;
  if (!src) return NULL;
  *copy = strdup(src);
  unsigned cap = 64;
  char **l = malloc(sizeof(char *) * cap);
  char *s = *copy;
  for (;;) {
    if (*n == cap) l = realloc(l, sizeof(char *) * (cap *= 2));
    l[(*n)++] = s;
    char *nl = strchr(s, '\n');
    if (!nl) break;
    *nl = 0;
    s = nl + 1;
  }
  return l;
}

static const char *role_name(uint32_t r) {
  static const char *const names[] = {"stmt",      "cond",     "loop-init", "loop-cond",
                                      "loop-body", "loop-inc", "barrier",   "exit"};
  return r < sizeof(names) / sizeof(names[0]) ? names[r] : "?";
}

static const char *space_name(uint32_t s) {
  static const char *const names[] = {"private", "local", "global", "constant", "arg"};
  return s < 5 ? names[s] : "?";
}

static const char *arg_kind(uint32_t k) {
  static const char *const names[] = {"global", "constant", "local", "value",
                                      "byval",  "sampler",  "image", "queue"};
  return k < 8 ? names[k] : "?";
}

void cc_dump(FILE *f, const struct lsi_program *p, const char *source) {
  unsigned nlines;
  char *copy;
  char **lines = split_lines(source, &nlines, &copy);
  if (p->data_size) fprintf(f, "data segment: %u bytes\n\n", p->data_size);
  for (uint32_t ki = 0; ki < p->nkernels; ki++) {
    const struct lsi_kernel *k = &p->kernels[ki];
    const struct cc_debug *d = k->debug;
    fprintf(f,
            "kernel %s: %u instructions, %u registers (%u constant), private %u bytes, "
            "local %u bytes, argbuf %u bytes\n",
            k->name, k->ninsns, k->nregs, k->nconst, k->private_size, k->local_size,
            k->argbuf_size);
    if (k->attributes && *k->attributes) fprintf(f, "  attributes: %s\n", k->attributes);
    for (uint32_t a = 0; a < k->nargs; a++) {
      const struct lsi_arg *g = &k->args[a];
      fprintf(f, "  arg %u: %-8s %s %s -> r%u", a, arg_kind(g->kind), g->type_name, g->name,
              g->reg);
      if (g->kind == LSI_ARG_VALUE) fprintf(f, "..r%u", g->reg + (g->nregs ? g->nregs - 1 : 0));
      fprintf(f, "  (argbuf +%u, %u bytes)\n", g->buf_offset, g->size);
    }
    uint32_t last_line = 0, last_file = ~0u, mk_cur = ~0u;
    for (uint32_t pc = 0; pc < k->ninsns; pc++) {
      if (d && d->pc_to_mk && d->pc_to_mk[pc] != mk_cur) {
        mk_cur = d->pc_to_mk[pc];
        fprintf(f, "  ; -- microkernel %u (%s)\n", mk_cur, role_name(d->mk[mk_cur].role));
      }
      uint32_t ln = k->lines ? k->lines[pc].line : 0, fl = k->lines ? k->lines[pc].file : 0;
      if (ln && (ln != last_line || fl != last_file)) {
        if (fl == 0 && lines && ln <= nlines)
          fprintf(f, "%5u | %s\n", ln, lines[ln - 1]);
        else
          fprintf(f, "%5u | (%s)\n", ln, fl < p->nfiles ? p->files[fl] : "?");
        last_line = ln;
        last_file = fl;
      }
      char buf[512];
      cc_format_insn(buf, sizeof(buf), k, pc);
      fprintf(f, "        %04u  %s\n", pc, buf);
    }
    if (d) {
      fprintf(f, "  microkernels:\n");
      for (uint32_t i = 0; i < d->nmk; i++) {
        const struct cc_microkernel *m = &d->mk[i];
        fprintf(f, "    mk %-3u lines %u-%u  pc %u..%u  %-9s", m->id, m->line_first, m->line_last,
                m->pc_begin, m->pc_end, role_name(m->role));
        if (m->loop) fprintf(f, " loop %u", m->loop - 1);
        fprintf(f, " ->");
        for (uint32_t s = 0; s < m->nsucc; s++)
          fprintf(f, " %u", m->succ[s]);
        if (m->more_succ) fprintf(f, " ...");
        if (!m->nsucc) fprintf(f, " end");
        fprintf(f, "\n");
      }
      fprintf(f, "  symbols:\n");
      for (uint32_t i = 0; i < d->nsyms; i++) {
        const struct cc_symbol *s = &d->syms[i];
        fprintf(f, "    %-12s %-20s %s+%u size %u  lines %u-%u%s", s->name, s->type_name,
                space_name(s->space), s->offset, s->size, s->scope_first, s->scope_last,
                s->arg_index ? "  (parameter)" : "");
        if (s->inl && s->inl <= d->ninl)
          fprintf(f, "  (%s inlined at line %u)", d->inl[s->inl - 1].func,
                  d->inl[s->inl - 1].call_line);
        if (s->pass_pc) fprintf(f, "  passed at pc %u", s->pass_pc - 1);
        fprintf(f, "\n");
      }
    }
    fprintf(f, "\n");
  }
  free(lines);
  free(copy);
}
