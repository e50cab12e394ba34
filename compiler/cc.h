/*
 * cc.h - the compiler's public face: OpenCL C source -> clang -> LLVM IR ->
 * LSI (device/lsi.h), the program binary format, the listing, and the debug
 * tables the debugger reads.
 *
 * The compiler knows nothing of CL objects: the runtime (program.c) calls it
 * with strings and gets back an lsi_program or a log. It never touches the
 * device: no memory is mapped here, no code runs here.
 */
#ifndef LOCKSTEP_COMPILER_CC_H
#define LOCKSTEP_COMPILER_CC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "device/lsi.h"

/* Results (the runtime maps them to CL error codes). */
enum cc_status {
  CC_OK = 0,
  CC_INVALID_OPTIONS, /* CL_INVALID_BUILD_OPTIONS / CL_INVALID_COMPILER_OPTIONS */
  CC_BUILD_FAILURE,   /* CL_BUILD_PROGRAM_FAILURE / CL_COMPILE_PROGRAM_FAILURE */
  CC_LINK_FAILURE,    /* CL_LINK_PROGRAM_FAILURE */
  CC_INVALID_BINARY,  /* CL_INVALID_BINARY */
  CC_OUT_OF_MEMORY,
};

/* Build options as parsed from the clBuildProgram string. */
struct cc_options {
  int cl_std;           /* 120, 200 or 300 */
  int opt_disable;      /* -cl-opt-disable (also implied by -g for debugging) */
  int debug;            /* -g */
  int kernel_arg_info;  /* -cl-kernel-arg-info */
  int create_library;   /* -create-library (link only) */
  int denorms_are_zero; /* -cl-denorms-are-zero (link only; compile passes it to clang) */
  int werror;
  int nargs; /* clang arguments derived from the options */
  char **args;
};

/* Parses options; on error returns CC_INVALID_OPTIONS with a message in err.
 * link is non-zero for clLinkProgram's options. cc_options_free releases. */
int cc_options_parse(const char *options, int link, struct cc_options *o, char *err, size_t errlen);
void cc_options_free(struct cc_options *o);

/* An embedded header for clCompileProgram. */
struct cc_header {
  const char *name;
  const char *source;
};

/* Bitcode of one compiled object or library (malloc'd bytes). */
struct cc_bitcode {
  uint8_t *data;
  size_t size;
};

/*
 * Source -> bitcode (clCompileProgram). filename is the name diagnostics and
 * line tables use for the main source. The log (malloc'd, never NULL on
 * return) gets clang's diagnostics.
 */
int cc_compile(const char *source, const char *filename, const char *options,
               const struct cc_header *headers, unsigned nheaders, struct cc_bitcode *out,
               char **log);

/*
 * Bitcode objects -> LSI program (clLinkProgram, and the second half of
 * clBuildProgram). With -create-library, *lib receives the linked bitcode
 * and *out stays NULL.
 */
int cc_link(const struct cc_bitcode *objs, unsigned nobjs, const char *options,
            struct lsi_program **out, struct cc_bitcode *lib, char **log);

/* Source -> LSI program in one step, through the build cache
 * ($XDG_CACHE_HOME/lockstep, off with LOCKSTEP_CACHE=0). */
int cc_build(const char *source, const char *filename, const char *options,
             struct lsi_program **out, char **log);

/* Frees a program made by the compiler or by cc_binary_load. */
void cc_program_free(struct lsi_program *p);

/*
 * Binary format (clGetProgramInfo(CL_PROGRAM_BINARIES) and the cache): a
 * versioned, checksummed container holding either an executable (LSI and
 * debug tables) or compiled/library bitcode.
 */
enum cc_binary_kind {
  CC_BIN_EXECUTABLE = 1,
  CC_BIN_OBJECT = 2,
  CC_BIN_LIBRARY = 3,
};

/* CL_DRIVER_VERSION: the release and everything cc_binary_load requires of a
 * binary, so that a binary cache keyed on the driver version (as bindings and
 * applications keep one) never hands back a binary this build rejects. */
const char *cc_driver_version(void);
int cc_binary_save(const struct lsi_program *p, const struct cc_bitcode *bc, int kind,
                   const char *log, uint8_t **out, size_t *outlen);
/* Validates and loads; exactly one of *p / *bc is filled, by kind. *log may
 * be NULL. Returns CC_INVALID_BINARY on any inconsistency. */
int cc_binary_load(const uint8_t *buf, size_t len, int *kind, struct lsi_program **p,
                   struct cc_bitcode *bc, char **log);

/* The listing `lockstep compile --dump` prints: LSI interleaved with the
 * source lines (source may be NULL), microkernels, flow control, symbols. */
void cc_dump(FILE *f, const struct lsi_program *p, const char *source);
/* One instruction in listing form, without newline. */
void cc_format_insn(char *buf, size_t len, const struct lsi_kernel *k, uint32_t pc);

/* The build cache, for what else is kept there (the native engine's
 * code): the path of file name in the cache folder (made when missing);
 * -1 when LOCKSTEP_CACHE turns the cache off or there is no folder. */
int cc_cache_path(const char *name, char *path, size_t len);
/* Which build of Lockstep this is (its library's size and time). */
const char *cc_build_stamp(void);
/* The 40-digit hex BLAKE3 hash of n parts into hex (41 bytes). */
void cc_hash_hex(const void *const *parts, const size_t *lens, unsigned n, char *hex);

/* Version string of the compiler (part of the cache key and the binary). */
const char *cc_version(void);

#endif
