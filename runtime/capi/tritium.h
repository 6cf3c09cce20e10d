/*===- tritium.h - the C API of tritium -----------------------------*- C -*-===
 *
 * A C-only boundary over the C++ host API (runtime/Tritium.h), for Python
 * (ctypes) and any other language: compile a Triton kernel from source text
 * with its constexpr values, query its parameters, launch it on the CPU
 * interpreter with host buffers and scalars, and fetch the last error.
 *
 *   tritium_compiler *c = tritium_compiler_create();
 *   tritium_constexpr block = {"BLOCK_SIZE", TRITIUM_CONSTEXPR_INT, 1024, 0,
 *                              NULL};
 *   tritium_kernel *k = NULL;
 *   if (tritium_kernel_compile(c, text, "vector_add.py", "add_kernel",
 *                              &block, 1, NULL, &k) != TRITIUM_OK)
 *     fprintf(stderr, "%s", tritium_last_error());
 *   tritium_arg args[4] = {0};
 *   args[0].kind = TRITIUM_ARG_BUFFER;
 *   args[0].value.buffer.data = x;
 *   args[0].value.buffer.bytes = n * sizeof(float);
 *   args[0].value.buffer.dtype = TRITIUM_F32;
 *   ... y and out likewise ...
 *   args[3].kind = TRITIUM_ARG_INT;
 *   args[3].value.i = n;
 *   int64_t grid[3] = {(n + 1023) / 1024, 1, 1};
 *   if (tritium_kernel_launch(k, grid, args, 4, NULL) != TRITIUM_OK)
 *     fprintf(stderr, "%s", tritium_last_error());
 *   tritium_kernel_destroy(k);
 *   tritium_compiler_destroy(c);
 *
 * A kernel that imports @jit helpers or constexpr globals from other Python
 * modules compiles once their sources are registered:
 *
 *   tritium_compiler_add_module(c, "helpers", helpers_text, "helpers.py");
 *
 * Every function that can fail returns a tritium_status; the message of the
 * latest failure on the calling thread is tritium_last_error(). Nothing
 * throws or aborts across this boundary. A compiler and its kernels are not
 * thread-safe; a kernel may outlive its compiler.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TRITIUM_CAPI_TRITIUM_H
#define TRITIUM_CAPI_TRITIUM_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define TRITIUM_API __declspec(dllexport)
#else
#define TRITIUM_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The version of tritium: "MAJOR.MINOR.PATCH". */
TRITIUM_API const char *tritium_version(void);

/* Results. */
typedef enum tritium_status {
  TRITIUM_OK = 0,
  /* A bad argument: wrong count or kind, an unknown or missing constexpr,
     a bad grid, a null pointer given to this API. */
  TRITIUM_ERROR_ARGUMENT = 1,
  /* The kernel does not compile: syntax or type error, no such kernel,
     the file cannot be read. The message is located (file:line:col, the
     source line and a caret). */
  TRITIUM_ERROR_COMPILE = 2,
  /* A fault while running the grid (an out-of-bounds access, a failed
     device_assert), naming the program id and source line. */
  TRITIUM_ERROR_RUNTIME = 3,
  /* Anything else (out of memory, an internal error). */
  TRITIUM_ERROR_INTERNAL = 4,
  /* The compiled kernel does not fit the GPU (shared memory, threads per
     block): Triton's OutOfResources. */
  TRITIUM_ERROR_RESOURCES = 5
} tritium_status;

/* The message of the latest failed call on this thread ("" when none); valid
   until the next call into this API on the same thread. */
TRITIUM_API const char *tritium_last_error(void);

/* Element types of buffers (values are stable). */
typedef enum tritium_dtype {
  TRITIUM_BOOL = 0, /* i1, one byte per element */
  TRITIUM_I8 = 1,
  TRITIUM_I16 = 2,
  TRITIUM_I32 = 3,
  TRITIUM_I64 = 4,
  TRITIUM_U8 = 5,
  TRITIUM_U16 = 6,
  TRITIUM_U32 = 7,
  TRITIUM_U64 = 8,
  TRITIUM_F16 = 9,
  TRITIUM_BF16 = 10,
  TRITIUM_F32 = 11,
  TRITIUM_F64 = 12,
  TRITIUM_F8E4NV = 13, /* fp8 e4m3fn (torch.float8_e4m3fn) */
  TRITIUM_F8E5 = 14, /* fp8 e5m2 (torch.float8_e5m2) */
  TRITIUM_F8E4B15 = 15, /* fp8 e4m3, exponent bias 15 */
  TRITIUM_F8E4B8 = 16, /* fp8 e4m3fnuz (torch.float8_e4m3fnuz) */
  TRITIUM_F8E5B16 = 17 /* fp8 e5m2fnuz (torch.float8_e5m2fnuz) */
} tritium_dtype;

/* The bytes of one element of `dtype` (0 for an unknown value). */
TRITIUM_API size_t tritium_dtype_size(int dtype);

/* ---------------------------------------------------------------------------
 * Compiling
 * ------------------------------------------------------------------------- */

typedef struct tritium_compiler tritium_compiler;
typedef struct tritium_kernel tritium_kernel;

typedef enum tritium_constexpr_kind {
  TRITIUM_CONSTEXPR_INT = 0,    /* i */
  TRITIUM_CONSTEXPR_FLOAT = 1,  /* f */
  TRITIUM_CONSTEXPR_BOOL = 2,   /* i (0 or 1) */
  TRITIUM_CONSTEXPR_STRING = 3, /* s: a Python string ("leaky_relu") */
  TRITIUM_CONSTEXPR_NONE = 4,   /* no value */
  /* s: a literal as a signature writes it, e.g. "float16" for tl.float16 */
  TRITIUM_CONSTEXPR_LITERAL = 5
} tritium_constexpr_kind;

/* The value of one `tl.constexpr` parameter. */
typedef struct tritium_constexpr {
  const char *name;
  int kind; /* a tritium_constexpr_kind */
  int64_t i;
  double f;
  const char *s;
} tritium_constexpr;

typedef struct tritium_compile_options {
  int debug; /* keep device_assert (Triton drops it unless debugging) */
} tritium_compile_options;

/* A compiler owns the MLIR context kernels compile in. NULL on failure. */
TRITIUM_API tritium_compiler *tritium_compiler_create(void);
TRITIUM_API void tritium_compiler_destroy(tritium_compiler *compiler);

/* Parses `source_text` (the whole Python file; `file_name` appears in
   messages), finds `kernel_name` and fixes its constexprs: the `n` given in
   `constexprs` by name, the others take their defaults. `options` may be
   NULL. On success *out is a new kernel (free with tritium_kernel_destroy).
   Type errors surface on the first launch, when a specialization compiles. */
TRITIUM_API tritium_status tritium_kernel_compile(
    tritium_compiler *compiler, const char *source_text, const char *file_name,
    const char *kernel_name, const tritium_constexpr *constexprs, size_t n,
    const tritium_compile_options *options, tritium_kernel **out);
TRITIUM_API void tritium_kernel_destroy(tritium_kernel *kernel);

/* Registers the source of Python module `module_name` ("helpers",
   "pkg.sub"; `file_name` appears in messages and source locations), so that
   kernels compiled afterwards with this compiler may use its @jit functions
   and constexpr globals: `import helpers`, `import pkg.sub as s`,
   `from helpers import f as g`, `from . import x`, `from helpers import *`.
   Names inside a helper's body resolve in the helper's own module, through
   any number of registered modules. A module is parsed when a kernel first
   needs it; its syntax errors are reported then, located in its file.
   Registering a name again replaces the module for kernels compiled
   afterwards (kernels already compiled keep theirs). A `file_name` ending in
   `__init__.py` makes the module a package: relative imports in it resolve
   against `module_name` itself, in other modules against its parent.
   Registering the kernel's own file (the same `file_name` given to
   tritium_kernel_compile) names the kernel's module, so helpers can import
   it and relative imports in it resolve. Modules that are not registered
   keep their built-in meaning (triton, triton.language, math) or cannot be
   called into. TRITIUM_ERROR_ARGUMENT for a null pointer or a name that is
   not a dotted Python identifier. */
TRITIUM_API tritium_status tritium_compiler_add_module(
    tritium_compiler *compiler, const char *module_name,
    const char *source_text, const char *file_name);

/* ---------------------------------------------------------------------------
 * Metadata: the kernel's parameters in source order, constexprs included.
 * ------------------------------------------------------------------------- */

TRITIUM_API const char *tritium_kernel_name(const tritium_kernel *kernel);
TRITIUM_API size_t tritium_kernel_num_params(const tritium_kernel *kernel);
/* NULL when `i` is out of range; valid while the kernel lives. */
TRITIUM_API const char *tritium_kernel_param_name(const tritium_kernel *kernel,
                                                  size_t i);
/* 1 for a `tl.constexpr` parameter, 0 for a runtime one, -1 out of range. */
TRITIUM_API int tritium_kernel_param_is_constexpr(const tritium_kernel *kernel,
                                                  size_t i);
/* 1 when the parameter has a default the launcher can use, else 0. */
TRITIUM_API int tritium_kernel_param_has_default(const tritium_kernel *kernel,
                                                 size_t i);
/* How many specializations were compiled so far (cache misses). */
TRITIUM_API size_t tritium_kernel_num_compiles(const tritium_kernel *kernel);

/* ---------------------------------------------------------------------------
 * Launching
 * ------------------------------------------------------------------------- */

typedef enum tritium_arg_kind {
  TRITIUM_ARG_BUFFER = 0,
  TRITIUM_ARG_INT = 1,
  TRITIUM_ARG_FLOAT = 2,
  TRITIUM_ARG_BOOL = 3,
  /* A tuple argument: `i` is its element count; its elements follow it in
     the args array (depth first: a nested tuple's elements follow that
     tuple's record), and `nargs` counts every record. */
  TRITIUM_ARG_TUPLE = 4,
  /* A compile-time tuple element (None, a tl.constexpr): `literal` as a
     signature writes it ("None", "4", "'name'", "float16"). */
  TRITIUM_ARG_LITERAL = 5,
  /* A host tensor descriptor (Triton's TensorDescriptor): `literal` is its
     block shape, "[64,64]", with ",nan" after it for NaN padding; 1 + 2 *
     rank records follow: the base BUFFER, then the shape and the strides
     (INT each, in elements; the last stride is 1). */
  TRITIUM_ARG_TENSORDESC = 6
} tritium_arg_kind;

/* Flags of an argument. */
/* INT: `i` holds the bits of a value in [2^63, 2^64). */
#define TRITIUM_ARG_UNSIGNED 1u
/* Triton's do_not_specialize: no `:16`, an int equal to 1 is not folded. */
#define TRITIUM_ARG_NO_SPECIALIZE 2u
/* BUFFER: garbage until the kernel writes it; the interpreter's "uninit"
   sanitizer reports reads of bytes nothing wrote. */
#define TRITIUM_ARG_UNINITIALIZED 4u

/* One launch argument, for one runtime (non-constexpr) parameter. */
typedef struct tritium_arg {
  int kind; /* a tritium_arg_kind */
  unsigned flags;
  union {
    struct {
      void *data;   /* host memory the kernel reads and writes in place
                       (device memory on TRITIUM_DEVICE_CUDA and
                       TRITIUM_DEVICE_HIP) */
      size_t bytes; /* its extent, a whole number of elements; the
                       interpreter checks every access against it, a GPU
                       launch does not read it (0 will do) */
      int dtype;    /* a tritium_dtype */
    } buffer;
    int64_t i; /* INT, BOOL (0 or 1), TUPLE (element count) */
    double f;  /* FLOAT: specializes as fp32, as in Triton */
    const char *literal; /* LITERAL, TENSORDESC */
  } value;
} tritium_arg;

typedef struct tritium_host_buffer {
  const void *data;
  size_t bytes;
  const char *name; /* in reports; may be NULL */
} tritium_host_buffer;

typedef struct tritium_launch_options {
  int num_warps;     /* warps per program on the GPU; the interpreter ignores it */
  int num_stages;    /* likewise */
  int num_ctas;      /* accepted, ignored by the interpreter */
  int maxnreg;       /* registers per thread on the GPU (0: no limit) */
  int deterministic; /* run programs one after another in program-id order */
  int threads;       /* worker threads (0: OpenMP's default) */
  int device;        /* a tritium_device: where the kernel runs */
  void *stream;      /* the CUstream a GPU launch goes on, a hipStream_t
                        on TRITIUM_DEVICE_HIP (NULL: the legacy default
                        stream, HIP's null stream); torch's current stream
                        from Python */
  int enable_fp_fusion; /* 1 (default): a multiply and an add may become one
                           fused multiply-add on the GPU, as in Triton */
  const char *sanitize; /* the interpreter's sanitizers for this launch,
                           comma-separated ("race,uninit,nan,overflow"; NULL:
                           none but TRITIUM_SANITIZE's); an unknown one is
                           TRITIUM_ERROR_ARGUMENT */
  /* An interpreter launch: host memory the kernel may reach through
     pointers it reads from memory (integers cast with tl.pointer_type, as
     08-grouped-gemm's tables of per-problem pointers), beyond its buffer
     arguments; NULL/0: none. The Python package passes every live CPU torch
     tensor's storage for kernels that make such casts. */
  const tritium_host_buffer *reachable;
  size_t num_reachable;
} tritium_launch_options;

typedef enum tritium_device {
  TRITIUM_DEVICE_INTERPRETER = 0, /* the CPU; buffers are host memory */
  TRITIUM_DEVICE_CUDA = 1, /* the CUDA GPU; buffer data are device pointers */
  /* The AMD GPU through HIP (libamdhip64 loaded at run time, or the file
     TRITIUM_HIP_LIBRARY names; the device TRITIUM_HIP_DEVICE names, default
     0); buffer data are device pointers, the launch runs on the device they
     are on. Without a HIP runtime or an AMD GPU a launch fails with
     TRITIUM_ERROR_RUNTIME, "no HIP runtime: ..." or "no AMD GPU: ...". */
  TRITIUM_DEVICE_HIP = 2
} tritium_device;

/* 1 when a CUDA GPU can run kernels; otherwise 0, and tritium_last_error()
   says why (no driver, no device). */
TRITIUM_API int tritium_cuda_available(void);

/* 1 when an AMD GPU can run kernels through HIP; otherwise 0, and
   tritium_last_error() says why (no HIP runtime, no device, an architecture
   the code generator does not compile for: it supports gfx90a, gfx942 and
   gfx950). */
TRITIUM_API int tritium_hip_available(void);

/* cuDeviceGetAttribute (a CUdevice_attribute number) of the CUDA device
   kernels launch on, into *value. TRITIUM_ERROR_RUNTIME when there is no GPU
   or the driver refuses the attribute. */
TRITIUM_API tritium_status tritium_cuda_device_attribute(int attribute,
                                                         int *value);

/* num_warps 4, num_stages 3, num_ctas 1, the rest 0. */
TRITIUM_API tritium_launch_options tritium_launch_options_default(void);

/* Specializes on `args` (one per runtime parameter, in order; trailing ones
   with defaults may be left out), compiles on a cache miss and runs the
   grid (`grid` NULL means {1, 1, 1}). `options` may be NULL. */
TRITIUM_API tritium_status tritium_kernel_launch(
    tritium_kernel *kernel, const int64_t grid[3], const tritium_arg *args,
    size_t nargs, const tritium_launch_options *options);

/* Compiles (or finds cached) the specialization for `args` without
   launching. On success *signature (may be NULL) points to its signature,
   valid until the next call on this kernel. */
TRITIUM_API tritium_status tritium_kernel_warmup(
    tritium_kernel *kernel, const tritium_arg *args, size_t nargs,
    const tritium_launch_options *options, const char **signature);

/* One specialization for tritium_kernels_warmup: what tritium_kernel_warmup
   takes, and its outcome. */
typedef struct tritium_warmup_job {
  tritium_kernel *kernel;
  const tritium_arg *args;
  size_t nargs;
  const tritium_launch_options *options; /* may be NULL */
  tritium_status status;                 /* set by the call */
} tritium_warmup_job;

/* tritium_kernel_warmup for each of `n` jobs, with the GPU compiles of
   those not compiled yet (LLVM, PTX, ptxas) running `threads` at a time (0:
   one per core): autotuning's configs compiled in parallel. Jobs may share
   a kernel. Each job's status is set; the call returns TRITIUM_OK when all
   succeeded, otherwise the first failure's status, whose message is
   tritium_last_error(). */
TRITIUM_API tritium_status tritium_kernels_warmup(tritium_warmup_job *jobs, size_t n,
                                                  int threads);

/* Compiles the specialization `signature` names, one entry per parameter as
   warmup returns it ("*fp32:16,i32,1024"; the constexprs' entries the values
   the kernel was compiled with), with no arguments and no launch; with
   `cuda_cc` (80, 90) also its GPU code for that target, no GPU needed (the
   "ttgir", "llir", "ptx" stages, and "cubin" where ptxas is installed). It
   becomes the kernel's latest specialization (tritium_kernel_compiled_*). */
TRITIUM_API tritium_status tritium_kernel_compile_signature(
    tritium_kernel *kernel, const char *signature,
    const tritium_launch_options *options, int cuda_cc);
/* The same for an AMD target, `amd_arch` "gfx90a", "gfx942" or "gfx950":
   the "ttgir", "llir", "amdgcn" and "hsaco" stages (ld.lld links the code
   object), no GPU needed. */
TRITIUM_API tritium_status tritium_kernel_compile_signature_amd(
    tritium_kernel *kernel, const char *signature,
    const tritium_launch_options *options, const char *amd_arch);

/* ---------------------------------------------------------------------------
 * The specialization the latest launch or warmup of a kernel used.
 * ------------------------------------------------------------------------- */

typedef struct tritium_compiled_info {
  int on_gpu;     /* 1 when compiled for the CUDA or the HIP device */
  int num_warps;
  int num_stages;
  int shared;     /* bytes of shared memory it launches with */
  int n_regs;     /* registers per thread (GPU) */
  int n_spills;   /* local-memory words per thread (GPU) */
} tritium_compiled_info;

/* TRITIUM_ERROR_ARGUMENT before any launch or warmup. */
TRITIUM_API tritium_status tritium_kernel_compiled_info(
    const tritium_kernel *kernel, tritium_compiled_info *out);
/* A stage's text ("ttir", and after a GPU launch or warmup "ttgir", "llir",
   "ptx", "cubin"; on TRITIUM_DEVICE_HIP "amdgcn" and "hsaco" for the last
   two), with its size (a cubin or hsaco is binary); NULL when that stage
   was not made. Valid until the kernel is destroyed. */
TRITIUM_API const char *tritium_kernel_compiled_stage(
    const tritium_kernel *kernel, const char *stage, size_t *size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TRITIUM_CAPI_TRITIUM_H */
