/*===- tritium_launch.c - the launcher's fast path, in C ------------------===
 *
 * A CPython extension (stable ABI, Python >= 3.11) that runs a cached
 * launch, `kernel[grid](*args, **kwargs)`, without executing Python code:
 * it binds the arguments to the kernel's parameters, finds the compiled
 * kernel for the constexpr values and the packed options for the launch
 * keywords in dictionaries the Python launcher filled, packs the runtime
 * arguments (ints, floats, bools, CUDA torch tensors, C-contiguous host
 * arrays through the buffer protocol), reads torch's current stream and
 * calls tritium_kernel_launch.
 *
 * Anything else (a first launch, an unknown keyword, None for a runtime
 * parameter, a strided host array, a tuple, a tensor descriptor, mixed
 * devices, an active profiler, ...) goes to the Python launcher, which
 * handles every case, raises the errors with their names, and fills the
 * dictionaries so that the next launch like it stays here. Python errors
 * met while inspecting a value are cleared and left for it to raise.
 *
 * The module holds no pointer into libtritium.so of its own: `configure`
 * gives it the address of tritium_kernel_launch, which ctypes loaded. The
 * array types it packs (`set_torch`, `set_host_array`) are given when the
 * Python launcher first meets them.
 *
 *===----------------------------------------------------------------------===*/
#define PY_SSIZE_T_CLEAN
#define Py_LIMITED_API 0x030B0000
#include <Python.h>

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "runtime/capi/tritium.h"

typedef tritium_status (*launch_fn)(tritium_kernel *, const int64_t[3],
                                    const tritium_arg *, size_t,
                                    const tritium_launch_options *);

/* Parameters a kernel may have for the fast path. */
#define MAX_PARAMS 64

/* What `configure` set; one set per process. */
static launch_fn g_launch;
static PyObject *g_tensor_type;  /* torch.Tensor, or NULL */
static PyObject *g_torch_dtypes; /* torch.dtype -> tritium dtype */
static PyObject *g_get_stream;   /* torch._C._cuda_getCurrentRawStream */
static PyObject *g_get_device;   /* torch._C._cuda_getDevice */
static PyObject *g_host_array;   /* numpy.ndarray, or NULL */
static int g_enabled = 1;        /* 0 while a profiler records launches */

static PyObject *s_dtype, *s_is_cuda, *s_data_ptr, *s_get_device, *s_handle, *s_acquire,
    *s_release, *s_kernel_attr, *s_name_attr;

/* -- Launcher -------------------------------------------------------------*/

typedef struct {
  PyObject_HEAD
  PyObject *names;    /* tuple of str: the parameters, in order */
  PyObject *defaults; /* tuple: each parameter's default, or `empty` */
  PyObject *empty;    /* the marker of "no default" */
  PyObject *kernels;  /* dict: constexpr key -> object with .handle */
  PyObject *extra;    /* dict: (k1, v1, k2, v2, ...) -> (options, debug) */
  PyObject *options;  /* bytes: the options of a launch without keywords */
  PyObject *debug;    /* the debug flag of a launch without keywords */
  PyObject *slow;     /* slow(grid, args, kwargs): the Python launcher */
  PyObject *result;   /* the type of what a launch returns (made without
                         __init__, with _kernel and _name set) */
  PyObject *name;     /* the kernel's name */
  PyObject *raise_status; /* raise_status(status): raises the C error */
  PyObject *lock;     /* the RLock every compile and launch holds */
  Py_ssize_t nparams, nconst, nrt;
  Py_ssize_t consts[MAX_PARAMS];
  Py_ssize_t rt[MAX_PARAMS];
  unsigned rtflags[MAX_PARAMS];
  Py_ssize_t fast_count, slow_count;
  int host_slow; /* launches on host arrays (the interpreter) go to Python */
} Launcher;

static PyObject *g_launcher_type;
static PyObject *g_bound_type;

static int launcher_traverse(PyObject *self, visitproc visit, void *arg) {
  Launcher *l = (Launcher *)self;
  Py_VISIT(l->names);
  Py_VISIT(l->defaults);
  Py_VISIT(l->empty);
  Py_VISIT(l->kernels);
  Py_VISIT(l->extra);
  Py_VISIT(l->options);
  Py_VISIT(l->debug);
  Py_VISIT(l->slow);
  Py_VISIT(l->result);
  Py_VISIT(l->name);
  Py_VISIT(l->raise_status);
  Py_VISIT(l->lock);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

static int launcher_clear(PyObject *self) {
  Launcher *l = (Launcher *)self;
  Py_CLEAR(l->names);
  Py_CLEAR(l->defaults);
  Py_CLEAR(l->empty);
  Py_CLEAR(l->kernels);
  Py_CLEAR(l->extra);
  Py_CLEAR(l->options);
  Py_CLEAR(l->debug);
  Py_CLEAR(l->slow);
  Py_CLEAR(l->result);
  Py_CLEAR(l->name);
  Py_CLEAR(l->raise_status);
  Py_CLEAR(l->lock);
  return 0;
}

/* tp_dealloc of a garbage-collected heap type whose tp_clear is `clear`. */
static void gc_dealloc(PyObject *self, inquiry clear) {
  PyTypeObject *tp = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  clear(self);
  freefunc free_fn = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  free_fn(self);
  Py_DECREF(tp);
}

static void launcher_dealloc(PyObject *self) { gc_dealloc(self, launcher_clear); }

/* Reads a tuple of ints in [0, limit) into out[]; -1 on a Python error. */
static Py_ssize_t read_indices(PyObject *tuple, Py_ssize_t *out,
                               unsigned *flags, Py_ssize_t limit,
                               const char *what) {
  Py_ssize_t n = PyTuple_Size(tuple);
  if (n < 0)
    return -1;
  if (n > MAX_PARAMS) {
    PyErr_Format(PyExc_ValueError, "%s: more than %d entries", what,
                 MAX_PARAMS);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *item = PyTuple_GetItem(tuple, i);
    long long v;
    if (flags) { /* (index, flags) pairs */
      if (!PyTuple_Check(item) || PyTuple_Size(item) != 2) {
        PyErr_Format(PyExc_TypeError, "%s: entries are (index, flags)", what);
        return -1;
      }
      flags[i] = (unsigned)PyLong_AsUnsignedLong(PyTuple_GetItem(item, 1));
      item = PyTuple_GetItem(item, 0);
    }
    v = PyLong_AsLongLong(item);
    if (PyErr_Occurred())
      return -1;
    if (v < 0 || v >= limit) {
      PyErr_Format(PyExc_ValueError, "%s: index %lld out of range", what, v);
      return -1;
    }
    out[i] = (Py_ssize_t)v;
  }
  return n;
}

/* Launcher(names, defaults, empty, constexprs, runtime, slow, result_type,
            name, raise_status, lock, debug) */
static PyObject *launcher_new(PyTypeObject *type, PyObject *args,
                              PyObject *kwargs) {
  PyObject *names, *defaults, *empty, *consts, *runtime, *slow, *result,
      *name, *raise_status, *lock, *debug;
  if (kwargs && PyDict_Size(kwargs)) {
    PyErr_SetString(PyExc_TypeError, "Launcher takes positional arguments");
    return NULL;
  }
  if (!PyArg_ParseTuple(args, "O!O!OO!O!OO!UOOO:Launcher", &PyTuple_Type,
                        &names, &PyTuple_Type, &defaults, &empty,
                        &PyTuple_Type, &consts, &PyTuple_Type, &runtime, &slow,
                        &PyType_Type, &result, &name, &raise_status, &lock,
                        &debug))
    return NULL;
  Py_ssize_t n = PyTuple_Size(names);
  if (n > MAX_PARAMS || PyTuple_Size(defaults) != n) {
    PyErr_Format(PyExc_ValueError,
                 "Launcher: %zd names and %zd defaults (at most %d)", n,
                 PyTuple_Size(defaults), MAX_PARAMS);
    return NULL;
  }
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  Launcher *l = (Launcher *)alloc(type, 0);
  if (!l)
    return NULL;
  l->nparams = n;
  l->nconst = read_indices(consts, l->consts, NULL, n, "constexprs");
  l->nrt = l->nconst < 0 ? -1
                         : read_indices(runtime, l->rt, l->rtflags, n,
                                        "runtime");
  if (l->nrt < 0) {
    Py_DECREF(l);
    return NULL;
  }
  Py_INCREF(names);
  l->names = names;
  Py_INCREF(defaults);
  l->defaults = defaults;
  Py_INCREF(empty);
  l->empty = empty;
  l->kernels = PyDict_New();
  l->extra = PyDict_New();
  Py_INCREF(Py_None);
  l->options = Py_None;
  Py_INCREF(debug);
  l->debug = debug;
  Py_INCREF(slow);
  l->slow = slow;
  Py_INCREF(result);
  l->result = result;
  Py_INCREF(name);
  l->name = name;
  Py_INCREF(raise_status);
  l->raise_status = raise_status;
  Py_INCREF(lock);
  l->lock = lock;
  if (!l->kernels || !l->extra) {
    Py_DECREF(l);
    return NULL;
  }
  return (PyObject *)l;
}

/* The index of keyword `key` among the parameters, or -1. */
static Py_ssize_t param_index(Launcher *l, PyObject *key) {
  for (Py_ssize_t i = 0; i < l->nparams; ++i)
    if (PyTuple_GetItem(l->names, i) == key)
      return i;
  for (Py_ssize_t i = 0; i < l->nparams; ++i) {
    int eq = PyObject_RichCompareBool(PyTuple_GetItem(l->names, i), key, Py_EQ);
    if (eq < 0) {
      PyErr_Clear();
      return -1;
    }
    if (eq)
      return i;
  }
  return -1;
}

/* The value of attribute/method `name` of `obj` (called when `call`), or
   NULL with the error cleared. */
static PyObject *get(PyObject *obj, PyObject *name, int call) {
  PyObject *v = call ? PyObject_CallMethodObjArgs(obj, name, NULL)
                     : PyObject_GetAttr(obj, name);
  if (!v)
    PyErr_Clear();
  return v;
}

enum { DEV_NONE = 0, DEV_HOST = 1, DEV_CUDA = 2 };

/* Packs the torch tensor `v` into `arg`; 0 when it is not a CUDA tensor of
   a known dtype, or not on device `*index` (-1: any, set to the tensor's).
   Its extent goes as 0: a GPU launch does not read it (see tritium_arg),
   and leaving it out saves reading the shape and strides. */
static int pack_tensor(PyObject *v, tritium_arg *arg, long *index) {
  PyObject *dt = get(v, s_dtype, 0);
  if (!dt)
    return 0;
  PyObject *entry = PyDict_GetItemWithError(g_torch_dtypes, dt);
  Py_DECREF(dt);
  if (!entry) {
    PyErr_Clear();
    return 0;
  }
  int code = (int)PyLong_AsLong(entry);
  PyObject *cuda = get(v, s_is_cuda, 0);
  if (cuda != Py_True) {
    Py_XDECREF(cuda);
    return 0;
  }
  Py_DECREF(cuda);
  PyObject *where = get(v, s_get_device, 1);
  if (!where)
    return 0;
  long ordinal = PyLong_AsLong(where);
  Py_DECREF(where);
  if (ordinal < 0) {
    PyErr_Clear();
    return 0;
  }
  if (*index < 0)
    *index = ordinal;
  else if (ordinal != *index)
    return 0; /* tensors on two devices: Python names them */
  PyObject *ptr = get(v, s_data_ptr, 1);
  if (!ptr)
    return 0;
  void *data = PyLong_AsVoidPtr(ptr);
  Py_DECREF(ptr);
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return 0;
  }
  arg->kind = TRITIUM_ARG_BUFFER;
  arg->value.buffer.data = data;
  arg->value.buffer.bytes = 0;
  arg->value.buffer.dtype = code;
  return 1;
}

/* The tritium dtype of a buffer-protocol format ("f", "<e", "=q", ...) with
   its item size, or -1. */
static int format_dtype(const char *format, Py_ssize_t itemsize) {
  if (!format)
    return TRITIUM_U8;
  if (*format == '<' || *format == '=' || *format == '@')
    ++format;
  if (!format[0] || format[1])
    return -1;
  switch (*format) {
  case '?':
    return itemsize == 1 ? TRITIUM_BOOL : -1;
  case 'e':
    return itemsize == 2 ? TRITIUM_F16 : -1;
  case 'f':
    return itemsize == 4 ? TRITIUM_F32 : -1;
  case 'd':
    return itemsize == 8 ? TRITIUM_F64 : -1;
  case 'b': case 'h': case 'i': case 'l': case 'q':
    return itemsize == 1 ? TRITIUM_I8 : itemsize == 2 ? TRITIUM_I16
         : itemsize == 4 ? TRITIUM_I32 : itemsize == 8 ? TRITIUM_I64 : -1;
  case 'B': case 'H': case 'I': case 'L': case 'Q':
    return itemsize == 1 ? TRITIUM_U8 : itemsize == 2 ? TRITIUM_U16
         : itemsize == 4 ? TRITIUM_U32 : itemsize == 8 ? TRITIUM_U64 : -1;
  default:
    return -1;
  }
}

/* The grid `g` (a tuple or list of 1 to 3 non-negative ints) into out[];
   0 when it is anything else. */
static int read_grid(PyObject *g, int64_t out[3]) {
  int is_tuple = PyTuple_Check(g);
  if (!is_tuple && !PyList_Check(g))
    return 0;
  Py_ssize_t n = is_tuple ? PyTuple_Size(g) : PyList_Size(g);
  if (n < 1 || n > 3)
    return 0;
  out[0] = out[1] = out[2] = 1;
  for (Py_ssize_t i = 0; i < n; ++i) {
    PyObject *d = is_tuple ? PyTuple_GetItem(g, i) : PyList_GetItem(g, i);
    if (!PyLong_CheckExact(d))
      return 0;
    long long v = PyLong_AsLongLong(d);
    if (v < 0 || PyErr_Occurred()) {
      PyErr_Clear();
      return 0;
    }
    out[i] = v;
  }
  return 1;
}

/* What the launch returns: an instance of l->result made as object.__new__
   makes it (no __init__: the class's defaults stand), with its kernel and
   name. */
static PyObject *make_result(Launcher *l, PyObject *kernel) {
  PyTypeObject *type = (PyTypeObject *)l->result;
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  PyObject *obj = alloc(type, 0);
  if (!obj)
    return NULL;
  if (PyObject_SetAttr(obj, s_kernel_attr, kernel) < 0 ||
      PyObject_SetAttr(obj, s_name_attr, l->name) < 0) {
    Py_DECREF(obj);
    return NULL;
  }
  return obj;
}

static PyObject *call_slow(Launcher *l, PyObject *grid, PyObject *args,
                           PyObject *kwargs) {
  ++l->slow_count;
  PyObject *kw = kwargs ? kwargs : PyDict_New();
  if (!kw)
    return NULL;
  PyObject *out = PyObject_CallFunctionObjArgs(l->slow, grid, args, kw, NULL);
  if (!kwargs)
    Py_DECREF(kw);
  return out;
}

static PyObject *launch(Launcher *l, PyObject *grid, PyObject *args,
                        PyObject *kwargs) {
  PyObject *values[MAX_PARAMS] = {0};
  tritium_arg records[MAX_PARAMS];
  Py_buffer views[MAX_PARAMS];
  Py_ssize_t nviews = 0;
  PyObject *ekey = NULL, *ckey = NULL, *g = NULL, *out = NULL;
  PyObject *kernel = NULL;
  PyObject *options, *debug;
  int device = DEV_NONE;
  long index = -1; /* the CUDA device the tensors are on */

  if (!g_enabled || !g_launch)
    return call_slow(l, grid, args, kwargs);

  /* Bind, as a call of a function with the kernel's signature would. */
  Py_ssize_t npos = PyTuple_Size(args);
  if (npos > l->nparams)
    goto slow;
  for (Py_ssize_t i = 0; i < npos; ++i)
    values[i] = PyTuple_GetItem(args, i);
  Py_ssize_t nextra = 0;
  if (kwargs && PyDict_Size(kwargs)) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
      Py_ssize_t i = param_index(l, key);
      if (i < 0) {
        ++nextra;
        continue;
      }
      if (values[i])
        goto slow; /* given twice: Python names the error */
      values[i] = value;
    }
    if (nextra) {
      ekey = PyTuple_New(2 * nextra);
      if (!ekey)
        return NULL;
      Py_ssize_t k = 0;
      pos = 0;
      while (PyDict_Next(kwargs, &pos, &key, &value)) {
        if (param_index(l, key) >= 0)
          continue;
        Py_INCREF(key);
        PyTuple_SetItem(ekey, k++, key);
        Py_INCREF(value);
        PyTuple_SetItem(ekey, k++, value);
      }
    }
  }
  for (Py_ssize_t i = 0; i < l->nparams; ++i) {
    if (values[i])
      continue;
    PyObject *d = PyTuple_GetItem(l->defaults, i);
    if (d == l->empty)
      goto slow; /* missing: Python names it */
    values[i] = d;
  }

  /* The packed options for these launch keywords. */
  if (ekey) {
    PyObject *entry = PyDict_GetItemWithError(l->extra, ekey);
    if (!entry || !PyTuple_Check(entry) || PyTuple_Size(entry) != 2) {
      PyErr_Clear(); /* unhashable, or not seen yet */
      goto slow;
    }
    options = PyTuple_GetItem(entry, 0);
    debug = PyTuple_GetItem(entry, 1);
  } else {
    options = l->options;
    debug = l->debug;
  }
  char *obytes;
  Py_ssize_t olen;
  if (!PyBytes_Check(options) ||
      PyBytes_AsStringAndSize(options, &obytes, &olen) < 0 ||
      olen != (Py_ssize_t)sizeof(tritium_launch_options)) {
    PyErr_Clear();
    goto slow;
  }
  tritium_launch_options opts;
  memcpy(&opts, obytes, sizeof opts);

  /* The kernel compiled for these constexpr values. */
  ckey = PyTuple_New(2 * l->nconst + 1);
  if (!ckey)
    goto fail;
  for (Py_ssize_t c = 0; c < l->nconst; ++c) {
    PyObject *v = values[l->consts[c]];
    Py_INCREF(v);
    PyTuple_SetItem(ckey, c, v);
    Py_INCREF((PyObject *)Py_TYPE(v));
    PyTuple_SetItem(ckey, l->nconst + c, (PyObject *)Py_TYPE(v));
  }
  Py_INCREF(debug);
  PyTuple_SetItem(ckey, 2 * l->nconst, debug);
  kernel = PyDict_GetItemWithError(l->kernels, ckey);
  if (!kernel) {
    PyErr_Clear();
    goto slow;
  }
  Py_INCREF(kernel);
  PyObject *h = get(kernel, s_handle, 0);
  if (!h)
    goto slow;
  tritium_kernel *handle = (tritium_kernel *)PyLong_AsVoidPtr(h);
  Py_DECREF(h);
  if (!handle) {
    PyErr_Clear();
    goto slow;
  }

  /* The runtime arguments. */
  for (Py_ssize_t r = 0; r < l->nrt; ++r) {
    PyObject *v = values[l->rt[r]];
    tritium_arg *a = &records[r];
    memset(a, 0, sizeof *a);
    a->flags = l->rtflags[r];
    if (PyBool_Check(v)) {
      a->kind = TRITIUM_ARG_BOOL;
      a->value.i = v == Py_True;
    } else if (PyLong_CheckExact(v)) {
      int overflow = 0;
      long long i = PyLong_AsLongLongAndOverflow(v, &overflow);
      if (overflow || (i == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        goto slow;
      }
      a->kind = TRITIUM_ARG_INT;
      a->value.i = i;
    } else if (PyFloat_CheckExact(v)) {
      a->kind = TRITIUM_ARG_FLOAT;
      a->value.f = PyFloat_AsDouble(v);
    } else if (g_tensor_type &&
               PyType_IsSubtype(Py_TYPE(v), (PyTypeObject *)g_tensor_type)) {
      if (device == DEV_HOST || !pack_tensor(v, a, &index))
        goto slow;
      a->flags = l->rtflags[r];
      device = DEV_CUDA;
    } else if (device != DEV_CUDA && g_host_array &&
               Py_TYPE(v) == (PyTypeObject *)g_host_array) {
      Py_buffer *view = &views[nviews];
      if (PyObject_GetBuffer(v, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        goto slow;
      }
      ++nviews;
      int dt = format_dtype(view->format, view->itemsize);
      if (dt < 0)
        goto slow;
      a->kind = TRITIUM_ARG_BUFFER;
      a->value.buffer.data = view->buf;
      a->value.buffer.bytes = (size_t)view->len;
      a->value.buffer.dtype = dt;
      device = DEV_HOST;
    } else {
      PyErr_Clear();
      goto slow; /* None, tuples, descriptors, other objects */
    }
  }
  if (device == DEV_NONE || (device == DEV_HOST && l->host_slow))
    goto slow;

  /* The grid. */
  if (PyTuple_Check(grid) || PyList_Check(grid)) {
    g = grid;
    Py_INCREF(g);
  } else if (PyCallable_Check(grid)) {
    PyObject *meta = PyDict_New();
    if (!meta)
      goto fail;
    for (Py_ssize_t i = 0; i < l->nparams; ++i)
      if (PyDict_SetItem(meta, PyTuple_GetItem(l->names, i), values[i]) < 0) {
        Py_DECREF(meta);
        goto fail;
      }
    g = PyObject_CallFunctionObjArgs(grid, meta, NULL);
    Py_DECREF(meta);
    if (!g)
      goto fail; /* the user's grid function raised */
  } else {
    goto slow;
  }
  int64_t dims[3];
  if (!read_grid(g, dims))
    goto slow;

  if (device == DEV_CUDA) {
    opts.device = TRITIUM_DEVICE_CUDA;
    /* torch's current stream on the tensors' device */
    PyObject *dev = index >= 0 ? PyLong_FromLong(index)
                               : PyObject_CallFunctionObjArgs(g_get_device, NULL);
    PyObject *stream =
        dev ? PyObject_CallFunctionObjArgs(g_get_stream, dev, NULL) : NULL;
    Py_XDECREF(dev);
    if (!stream) {
      PyErr_Clear();
      goto slow;
    }
    opts.stream = PyLong_AsVoidPtr(stream);
    Py_DECREF(stream);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      goto slow;
    }
  }

  /* Launch, holding the lock every compile and launch holds. */
  PyObject *held = PyObject_CallMethodObjArgs(l->lock, s_acquire, NULL);
  if (!held)
    goto fail;
  Py_DECREF(held);
  tritium_status status = g_launch(handle, dims, records, (size_t)l->nrt, &opts);
  if (status != TRITIUM_OK) {
    PyObject *r = PyObject_CallFunction(l->raise_status, "i", (int)status);
    Py_XDECREF(r);
    if (!r) { /* keep the launch's error across the release */
      PyObject *type, *value, *tb;
      PyErr_Fetch(&type, &value, &tb);
      PyObject *released = PyObject_CallMethodObjArgs(l->lock, s_release, NULL);
      Py_XDECREF(released);
      PyErr_Restore(type, value, tb);
      goto fail;
    }
  }
  PyObject *released = PyObject_CallMethodObjArgs(l->lock, s_release, NULL);
  if (!released)
    goto fail;
  Py_DECREF(released);
  ++l->fast_count;
  out = make_result(l, kernel);
  goto done;

slow:
  PyErr_Clear();
  for (Py_ssize_t i = 0; i < nviews; ++i)
    PyBuffer_Release(&views[i]);
  nviews = 0;
  Py_XDECREF(ekey);
  Py_XDECREF(ckey);
  Py_XDECREF(g);
  Py_XDECREF(kernel);
  return call_slow(l, grid, args, kwargs);
fail:
  out = NULL;
done:
  for (Py_ssize_t i = 0; i < nviews; ++i)
    PyBuffer_Release(&views[i]);
  Py_XDECREF(ekey);
  Py_XDECREF(ckey);
  Py_XDECREF(g);
  Py_XDECREF(kernel);
  return out;
}

/* launcher(grid, args, kwargs) */
static PyObject *launcher_call(PyObject *self, PyObject *args,
                               PyObject *kwargs) {
  PyObject *grid, *a, *kw;
  if (kwargs && PyDict_Size(kwargs)) {
    PyErr_SetString(PyExc_TypeError, "launcher(grid, args, kwargs)");
    return NULL;
  }
  if (!PyArg_ParseTuple(args, "OO!O!:launcher", &grid, &PyTuple_Type, &a,
                        &PyDict_Type, &kw))
    return NULL;
  return launch((Launcher *)self, grid, a, kw);
}

static PyObject *launcher_bind(PyObject *self, PyObject *grid);

static PyObject *launcher_get(PyObject *self, void *which) {
  Launcher *l = (Launcher *)self;
  switch ((intptr_t)which) {
  case 0:
    Py_INCREF(l->kernels);
    return l->kernels;
  case 1:
    Py_INCREF(l->extra);
    return l->extra;
  case 2:
    Py_INCREF(l->options);
    return l->options;
  case 3:
    return PyLong_FromSsize_t(l->fast_count);
  case 5:
    return PyBool_FromLong(l->host_slow);
  default:
    return PyLong_FromSsize_t(l->slow_count);
  }
}

static int launcher_set_host_slow(PyObject *self, PyObject *value, void *unused) {
  (void)unused;
  int truth = value ? PyObject_IsTrue(value) : -1;
  if (truth < 0) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_TypeError, "host_slow: a truth value");
    return -1;
  }
  ((Launcher *)self)->host_slow = truth;
  return 0;
}

static int launcher_set_options(PyObject *self, PyObject *value, void *unused) {
  (void)unused;
  Launcher *l = (Launcher *)self;
  if (!value || (value != Py_None && !PyBytes_Check(value))) {
    PyErr_SetString(PyExc_TypeError, "options: bytes or None");
    return -1;
  }
  PyObject *old = l->options;
  Py_INCREF(value);
  l->options = value;
  Py_XDECREF(old);
  return 0;
}

static PyGetSetDef launcher_getset[] = {
    {"kernels", launcher_get, NULL,
     "constexpr key -> compiled kernel (an object with .handle)", (void *)0},
    {"extra", launcher_get, NULL,
     "launch keywords (k1, v1, ...) -> (packed options, debug)", (void *)1},
    {"options", launcher_get, launcher_set_options,
     "packed options of a launch without launch keywords", (void *)2},
    {"fast_launches", launcher_get, NULL, "launches done here", (void *)3},
    {"slow_launches", launcher_get, NULL,
     "launches handed to the Python launcher", (void *)4},
    {"host_slow", launcher_get, launcher_set_host_slow,
     "launches on host arrays (the interpreter) are handed to the Python "
     "launcher (kernels that read pointers from memory: it tells the "
     "interpreter of the memory they may reach)",
     (void *)5},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef launcher_methods[] = {
    {"bind", launcher_bind, METH_O,
     "bind(grid): a callable f(*args, **kwargs) that launches on grid"},
    {NULL, NULL, 0, NULL}};

static PyType_Slot launcher_slots[] = {
    {Py_tp_new, launcher_new},
    {Py_tp_dealloc, launcher_dealloc},
    {Py_tp_traverse, launcher_traverse},
    {Py_tp_clear, launcher_clear},
    {Py_tp_call, launcher_call},
    {Py_tp_getset, launcher_getset},
    {Py_tp_methods, launcher_methods},
    {Py_tp_doc, "The fast path of one kernel's launches."},
    {0, NULL}};

static PyType_Spec launcher_spec = {
    "tritium_launch.Launcher", sizeof(Launcher), 0,
    Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC, launcher_slots};

/* -- Bound: kernel[grid] ---------------------------------------------------*/

typedef struct {
  PyObject_HEAD
  PyObject *launcher;
  PyObject *grid;
} Bound;

static int bound_traverse(PyObject *self, visitproc visit, void *arg) {
  Py_VISIT(((Bound *)self)->launcher);
  Py_VISIT(((Bound *)self)->grid);
  Py_VISIT(Py_TYPE(self));
  return 0;
}

static int bound_clear(PyObject *self) {
  Py_CLEAR(((Bound *)self)->launcher);
  Py_CLEAR(((Bound *)self)->grid);
  return 0;
}

static void bound_dealloc(PyObject *self) { gc_dealloc(self, bound_clear); }

static PyObject *bound_call(PyObject *self, PyObject *args, PyObject *kwargs) {
  Bound *b = (Bound *)self;
  return launch((Launcher *)b->launcher, b->grid, args, kwargs);
}

static PyType_Slot bound_slots[] = {
    {Py_tp_dealloc, bound_dealloc},
    {Py_tp_traverse, bound_traverse},
    {Py_tp_clear, bound_clear},
    {Py_tp_call, bound_call},
    {Py_tp_doc, "kernel[grid]: launches the kernel on grid when called."},
    {0, NULL}};

static PyType_Spec bound_spec = {"tritium_launch.Bound", sizeof(Bound), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
                                 bound_slots};

static PyObject *launcher_bind(PyObject *self, PyObject *grid) {
  PyTypeObject *tp = (PyTypeObject *)g_bound_type;
  allocfunc alloc = (allocfunc)PyType_GetSlot(tp, Py_tp_alloc);
  Bound *b = (Bound *)alloc(tp, 0);
  if (!b)
    return NULL;
  Py_INCREF(self);
  b->launcher = self;
  Py_INCREF(grid);
  b->grid = grid;
  return (PyObject *)b;
}

/* -- module functions -------------------------------------------------------*/

/* configure(launch_address): the C API's launch function */
static PyObject *configure(PyObject *self, PyObject *address) {
  (void)self;
  void *fn = PyLong_AsVoidPtr(address);
  if (!fn) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_ValueError, "configure: null launch address");
    return NULL;
  }
  g_launch = (launch_fn)fn;
  Py_RETURN_NONE;
}

static void replace(PyObject **slot, PyObject *value) {
  PyObject *old = *slot;
  Py_INCREF(value);
  *slot = value;
  Py_XDECREF(old);
}

/* set_torch(tensor_type, torch_dtypes, get_stream, get_device): CUDA
   tensors of these dtypes ({torch.dtype: tritium dtype}) launch here, on
   the stream get_stream(get_device()) */
static PyObject *set_torch(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *tensor, *dtypes, *stream, *device;
  if (!PyArg_ParseTuple(args, "O!O!OO:set_torch", &PyType_Type, &tensor,
                        &PyDict_Type, &dtypes, &stream, &device))
    return NULL;
  if (!PyCallable_Check(stream) || !PyCallable_Check(device)) {
    PyErr_SetString(PyExc_TypeError,
                    "set_torch: get_stream and get_device must be callable");
    return NULL;
  }
  replace(&g_torch_dtypes, dtypes);
  replace(&g_get_stream, stream);
  replace(&g_get_device, device);
  replace(&g_tensor_type, tensor);
  Py_RETURN_NONE;
}

/* set_host_array(type): C-contiguous arrays of exactly this type (numpy's
   ndarray) launch here, on the interpreter, through the buffer protocol */
static PyObject *set_host_array(PyObject *self, PyObject *type) {
  (void)self;
  if (!PyType_Check(type)) {
    PyErr_SetString(PyExc_TypeError, "set_host_array: a type");
    return NULL;
  }
  replace(&g_host_array, type);
  Py_RETURN_NONE;
}

/* set_enabled(flag): off sends every launch to the Python launcher */
static PyObject *set_enabled(PyObject *self, PyObject *flag) {
  (void)self;
  int on = PyObject_IsTrue(flag);
  if (on < 0)
    return NULL;
  g_enabled = on;
  Py_RETURN_NONE;
}

/* time_launches(handle, grid, args, options, count): seconds per call of
   `count` back-to-back tritium_kernel_launch calls from C with prebuilt
   records (grid: 3 int64, args: tritium_arg records, options: one
   tritium_launch_options, all as bytes); the C side of a launch with no
   Python in the loop. Raises on the first failing launch. */
static PyObject *time_launches(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *handle_obj;
  const char *grid, *recs, *opts;
  Py_ssize_t glen, rlen, olen, count;
  if (!PyArg_ParseTuple(args, "Oy#y#y#n:time_launches", &handle_obj, &grid,
                        &glen, &recs, &rlen, &opts, &olen, &count))
    return NULL;
  void *handle = PyLong_AsVoidPtr(handle_obj);
  if (!handle || !g_launch || glen != 3 * (Py_ssize_t)sizeof(int64_t) ||
      rlen % (Py_ssize_t)sizeof(tritium_arg) ||
      olen != (Py_ssize_t)sizeof(tritium_launch_options) || count < 1) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_ValueError,
                      "time_launches: a handle, grid (24 bytes), records "
                      "(32 bytes each), options and count >= 1, after "
                      "configure");
    return NULL;
  }
  int64_t dims[3];
  memcpy(dims, grid, sizeof dims);
  tritium_launch_options o;
  memcpy(&o, opts, sizeof o);
  size_t n = (size_t)rlen / sizeof(tritium_arg);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (Py_ssize_t i = 0; i < count; ++i) {
    tritium_status s = g_launch((tritium_kernel *)handle, dims,
                                (const tritium_arg *)recs, n, &o);
    if (s != TRITIUM_OK)
      return PyErr_Format(PyExc_RuntimeError,
                          "time_launches: launch %zd failed (status %d)", i,
                          (int)s);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double seconds = (double)(t1.tv_sec - t0.tv_sec) +
                   (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  return PyFloat_FromDouble(seconds / (double)count);
}

static PyMethodDef module_methods[] = {
    {"configure", configure, METH_O,
     "configure(launch_address): the C API's tritium_kernel_launch"},
    {"set_torch", set_torch, METH_VARARGS,
     "set_torch(tensor_type, torch_dtypes, get_stream, get_device)"},
    {"set_host_array", set_host_array, METH_O,
     "set_host_array(type): numpy's ndarray"},
    {"set_enabled", set_enabled, METH_O,
     "set_enabled(flag): off sends every launch to the Python launcher"},
    {"time_launches", time_launches, METH_VARARGS,
     "time_launches(handle, grid, args, options, count) -> seconds per "
     "launch"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "tritium_launch",
    "The launcher's fast path (see tritium/jit.py).", -1, module_methods,
    NULL, NULL, NULL, NULL};

static int intern(PyObject **slot, const char *text) {
  *slot = PyUnicode_InternFromString(text);
  return *slot ? 0 : -1;
}

PyMODINIT_FUNC PyInit_tritium_launch(void) {
  if (intern(&s_dtype, "dtype") || intern(&s_is_cuda, "is_cuda") ||
      intern(&s_data_ptr, "data_ptr") || intern(&s_handle, "handle") ||
      intern(&s_get_device, "get_device") ||
      intern(&s_acquire, "acquire") || intern(&s_release, "release") ||
      intern(&s_kernel_attr, "_kernel") || intern(&s_name_attr, "_name"))
    return NULL;
  PyObject *m = PyModule_Create(&module_def);
  if (!m)
    return NULL;
  g_launcher_type = PyType_FromSpec(&launcher_spec);
  g_bound_type = g_launcher_type ? PyType_FromSpec(&bound_spec) : NULL;
  if (!g_bound_type || PyModule_AddObjectRef(m, "Launcher", g_launcher_type) < 0 ||
      PyModule_AddObjectRef(m, "Bound", g_bound_type) < 0 ||
      PyModule_AddIntConstant(m, "ARG_RECORD_SIZE", sizeof(tritium_arg)) < 0 ||
      PyModule_AddIntConstant(m, "OPTIONS_SIZE",
                              sizeof(tritium_launch_options)) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
