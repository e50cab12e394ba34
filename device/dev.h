/*
 * dev.h - the device's public face: its configuration and the one ops table
 * (struct dev_ops) through which the runtime reaches it.
 *
 * The runtime never looks inside the simulator; a stub device implementing
 * dev_ops lets runtime tests run without it. Device addresses are 64-bit
 * values in one device address space (see device/mem.h for the layout).
 */
#ifndef LOCKSTEP_DEVICE_DEV_H
#define LOCKSTEP_DEVICE_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One device configuration; every limit the device reports comes from here. */
struct dev_config {
  unsigned compute_units;     /* LOCKSTEP_COMPUTE_UNITS */
  unsigned warp_width;        /* LOCKSTEP_WARP_WIDTH, 4..64 */
  unsigned host_threads;      /* LOCKSTEP_HOST_THREADS, 0 = one per host core */
  uint64_t global_mem_size;   /* LOCKSTEP_GLOBAL_MEM_SIZE (bytes, K/M/G suffix) */
  uint64_t max_alloc_size;    /* LOCKSTEP_MAX_ALLOC_SIZE */
  uint64_t local_mem_size;    /* LOCKSTEP_LOCAL_MEM_SIZE */
  uint64_t constant_buf_size; /* CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE */
  uint64_t private_mem_size;  /* bytes of private memory per work-item */
  unsigned max_wg_size;       /* LOCKSTEP_MAX_WORK_GROUP_SIZE */
  unsigned clock_mhz;         /* reported clock */
  bool faults_report;         /* LOCKSTEP_FAULTS=report: report invalid accesses, go on */
  unsigned watchdog_ms;       /* LOCKSTEP_WATCHDOG_MS: a launch running longer faults (0 = off) */
  unsigned progress_ms;       /* LOCKSTEP_PROGRESS_MS: a loop in the same state this long faults */
  unsigned check_divzero;     /* LOCKSTEP_CHECK_DIVZERO: 1 = report integer division by zero */
  unsigned check;             /* LOCKSTEP_CHECK: enum dev_check bits (device/check.h) */
  unsigned engine;            /* LOCKSTEP_ENGINE: enum dev_engine */
  uint64_t native_min;        /* LOCKSTEP_NATIVE_MIN: lane instructions of a kernel's launches
                                 (those run, and this one's estimate) before it is compiled */
  /* Images (CL_DEVICE_IMAGE*): sizes and alignments in texels. */
  uint64_t image2d_max;       /* IMAGE2D_MAX_WIDTH/_HEIGHT (and 1D widths) */
  uint64_t image3d_max;       /* IMAGE3D_MAX_WIDTH/_HEIGHT/_DEPTH */
  uint64_t image_buffer_max;  /* IMAGE_MAX_BUFFER_SIZE */
  uint64_t image_array_max;   /* IMAGE_MAX_ARRAY_SIZE */
  unsigned image_pitch_align; /* IMAGE_PITCH_ALIGNMENT (2D images from buffers) */
  unsigned image_base_align;  /* IMAGE_BASE_ADDRESS_ALIGNMENT */
  unsigned max_samplers;      /* MAX_SAMPLERS */
  unsigned max_read_images;   /* MAX_READ_IMAGE_ARGS */
  unsigned max_write_images;  /* MAX_WRITE_IMAGE_ARGS */
  unsigned max_rw_images;     /* MAX_READ_WRITE_IMAGE_ARGS */
};

/* What runs a kernel's warps (LOCKSTEP_ENGINE): the interpreter, the
 * reference (device/interp.c), or native code compiled by LLVM's JIT
 * (device/native*.c). The debugger and the checkers always use the
 * interpreter. */
enum dev_engine {
  DEV_ENGINE_NATIVE,
  DEV_ENGINE_INTERP,
};
/* Whether this build has engine e: LOCKSTEP_ENGINE=native runs the
 * interpreter while the native engine is not built in. `lockstep version`
 * lists the engines, and the tests require native warp slices once native
 * is listed (tests/util/engines.sh). */
bool dev_engine_available(unsigned e);

/* Fills cfg with the defaults, then applies the LOCKSTEP_* environment
 * variables. A bad value prints one clear message to stderr and keeps the
 * default. */
void dev_config_load(struct dev_config *cfg);
void dev_config_defaults(struct dev_config *cfg);
/* The default global memory for a host with `physical` bytes of memory
 * (0: unknown), and the default largest allocation for a global size. */
uint64_t dev_default_global_mem(uint64_t physical);
uint64_t dev_default_max_alloc(uint64_t global);

struct dev_device;
struct lsi_program;
struct lsi_kernel;

/* What a device exception says; filled by the device, read by the runtime
 * (event status, pfn_notify, stderr report) and by the debugger. */
struct dev_exception {
  int trap;              /* enum lsi_trap */
  const char *kernel;    /* kernel name */
  const char *file;      /* source file, may be NULL */
  uint32_t line;         /* source line, 0 = unknown */
  uint64_t global_id[3]; /* faulting work-item */
  uint64_t group_id[3];
  uint64_t local_id[3];
  uint64_t address;  /* faulting device address, when the fault has one */
  uint32_t pc;       /* the faulting instruction (lockstep compile --dump), */
  int have_pc;       /* when known */
  char message[512]; /* one-line human-readable report */
};

/* Formats e as the one-line report (kernel, file:line, work-item, work-group,
 * message, address) into buf; returns the length snprintf would give. */
size_t dev_exception_format(const struct dev_exception *e, char *buf, size_t n);

/* One NDRange launch, fully resolved. */
struct dev_launch {
  const struct lsi_program *prog;
  const struct lsi_kernel *kernel;
  uint64_t data_base; /* device address of the program's data segment (0 if none) */
  uint32_t work_dim;
  uint64_t offset[3];
  uint64_t global[3];
  uint64_t local[3];      /* never 0: the runtime picks a size when the user passed NULL */
  const uint8_t *argbuf;  /* kernel->argbuf_size bytes, args at lsi_arg.buf_offset */
  uint64_t default_queue; /* get_default_queue(): an on-device queue handle, or 0 */
  /* LOCKSTEP_FAULTS=report: called on a worker thread, once per source line,
   * with an invalid access the kernel went on past (NULL: the device prints
   * the report on stderr itself). */
  void (*report)(void *arg, const struct dev_exception *e);
  void *report_arg;
};

enum dev_cmd_kind {
  DEV_CMD_NOP,       /* markers, barriers, migrations: completes at once */
  DEV_CMD_READ,      /* device src -> host ptr */
  DEV_CMD_WRITE,     /* host ptr -> device dst */
  DEV_CMD_COPY,      /* device src -> device dst */
  DEV_CMD_FILL,      /* pattern repeated over device dst */
  DEV_CMD_READ_RECT, /* rect forms: region/pitches as in clEnqueue*Rect */
  DEV_CMD_WRITE_RECT,
  DEV_CMD_COPY_RECT,
  DEV_CMD_LAUNCH,
  DEV_CMD_HOST,      /* run fn(arg) on the device thread (map/unmap bookkeeping) */
  DEV_CMD_FILL_RECT, /* pattern repeated over each row of rect's dst side (image fills) */
};

struct dev_rect {
  uint64_t src_origin[3], dst_origin[3], region[3];
  uint64_t src_row_pitch, src_slice_pitch, dst_row_pitch, dst_slice_pitch;
};

/* What a launch_fn is told about a launch run through it, and leaves for
 * its next call (struct dev_cmd.launch_fn). */
struct dev_switch {
  uint64_t saved;  /* in: what the trace holds (0 at the first call); out: what to keep */
  uint64_t token;  /* in: names the launch for dev_device_reissue */
  unsigned stream; /* in: the command stream (queue) the launch came from */
};
#define DEV_LAUNCH_SWITCHED 1

struct dev_cmd {
  enum dev_cmd_kind kind;
  uint64_t src, dst; /* device addresses */
  void *host;        /* host pointer for READ/WRITE */
  uint64_t size;
  uint8_t pattern[128]; /* FILL, FILL_RECT */
  uint32_t pattern_size;
  struct dev_rect rect;
  struct dev_launch launch;
  void (*host_fn)(void *arg);
  void *host_arg;
  /* LAUNCH: when set, the processor runs the launch through this function
   * instead of the SIMT engine (a layer above the device, the debugger,
   * runs it). Returns 0 when the launch completed, a negative error with
   * *exc filled like simt_launch, or DEV_LAUNCH_SWITCHED: the launch
   * stopped with its state saved under sw->saved. The command then ends as
   * a switched-out command: the stream's trace keeps sw->saved, the
   * processor thread goes to other streams, and nothing more of that
   * stream runs until dev_device_reissue(sw->token); then launch_fn is
   * called again for the same launch with sw->saved as it was left. */
  int (*launch_fn)(void *arg, struct dev_device *d, const struct dev_launch *l,
                   struct dev_exception *exc, struct dev_switch *sw);
  void *launch_arg;
  /* Priority of the command's queue: higher runs first and may preempt a
   * lower one between work-groups (1 high, 0 medium, -1 low). */
  int priority;
  /* Set by the device: times in dev_ops.now_ns() nanoseconds, and the
   * exception when status < 0. */
  uint64_t t_start, t_end;
  struct dev_exception exc;
  /* May be NULL. Called once on the device thread when the command's first
   * piece (work-groups of a kernel, a chunk of a transfer) begins to run,
   * before done. */
  void (*started)(struct dev_cmd *cmd);
  /* Called once on the device thread when the command finished; status is
   * CL_COMPLETE (0) or a negative error. The command must stay alive until
   * then. */
  void (*done)(struct dev_cmd *cmd, int status);
  void *user;
};

/*
 * Operations the runtime may ask of a device. Unless said otherwise a hook may
 * be called from any host thread at any time; the device does its own locking.
 */
struct dev_ops {
  const char *name;
  /* Creates the device for cfg. Called once, under the runtime's init lock. */
  struct dev_device *(*create)(const struct dev_config *cfg);
  /* Maps size bytes of host memory at host into the device address space as
   * global memory; returns the device address (0 on failure). The host memory
   * stays owned by the caller and must outlive the mapping. */
  uint64_t (*map_global)(struct dev_device *d, void *host, uint64_t size, bool read_only);
  /* Removes a mapping made by map_global. Later accesses to it fault as
   * "access to a released buffer". */
  void (*unmap_global)(struct dev_device *d, uint64_t addr);
  /* May be NULL. The mapping at addr holds no defined data yet (a buffer
   * created without host data): the uninitialised-value checker, when on,
   * tracks its bytes until commands or kernels write them. */
  void (*map_undefined)(struct dev_device *d, uint64_t addr);
  /* May be NULL (no shared virtual memory). Allocates size zeroed bytes of
   * SVM: host memory whose address is also its device address (a kernel
   * may follow pointers stored in it), aligned to at least 64 KiB; NULL on
   * failure. The device owns the memory; kernel stores to a read_only one
   * fault. */
  void *(*svm_alloc)(struct dev_device *d, uint64_t size, bool read_only);
  /* Frees what svm_alloc returned; later device accesses fault as
   * "released". */
  void (*svm_free)(struct dev_device *d, void *p);
  /* May be NULL. The mapping at addr views the bytes at parent (a
   * sub-buffer): it shares their definedness for the checker. */
  void (*map_view)(struct dev_device *d, uint64_t addr, uint64_t parent);
  /* May be NULL. The host wrote [addr, addr+len) of a mapping (a write map
   * was unmapped): the checker counts those bytes defined. */
  void (*define_global)(struct dev_device *d, uint64_t addr, uint64_t len);
  /* Queues cmd for asynchronous execution; returns at once. Commands given to
   * one stream run in submission order; commands of different streams may
   * run concurrently. stream is any small integer the runtime picks per
   * command queue. The runtime submits a command only when every event it
   * waits for has completed. */
  void (*submit)(struct dev_device *d, unsigned stream, struct dev_cmd *cmd);
  /* May be NULL. The runtime will submit nothing more to stream (its command
   * queue was released and every command it submitted there has called
   * done(), possibly from inside that done()): the device may forget the
   * stream. Any thread. */
  void (*stream_release)(struct dev_device *d, unsigned stream);
  /* May be NULL (no on-device queues). Creates an on-device command queue
   * of about size bytes (device/dq.h) whose commands the device runs itself;
   * returns its handle, the queue_t value kernels see, or 0. */
  uint64_t (*dq_create)(struct dev_device *d, uint64_t size);
  /* Forgets an on-device queue once the work in it is finished. */
  void (*dq_release)(struct dev_device *d, uint64_t handle);
  /* Device nanosecond clock (the clock profiling timestamps use): it must be
   * CLOCK_MONOTONIC, which clGetDeviceAndHostTimer also reports. */
  uint64_t (*now_ns)(struct dev_device *d);
};

/* The simulated SIMT device (device/device.c). */
extern const struct dev_ops dev_simt_ops;

#endif
