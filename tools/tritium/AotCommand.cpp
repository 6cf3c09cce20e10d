//===- AotCommand.cpp - `tritium aot` -------------------------------------===//
#include "tools/tritium/AotCommand.h"

#include "codegen/Pipeline.h"
#include "frontend/IRGen.h"
#include "frontend/Parser.h"
#include "ir/TileDialect.h"
#include "runtime/cuda/Ptxas.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

using namespace tritium::fe;

namespace tritium::aot {
namespace {

/// A runtime parameter of the C launcher.
struct CParam {
  std::string name;
  std::string sigType; ///< "*fp32", "i32", ...
  std::string cType;   ///< uint64_t for pointers
};

/// One signature's compiled kernel for one target.
struct Compiled {
  unsigned cc = 0;
  std::string cubin;
  std::string symbol;
  std::string kinds; ///< one letter per kernel parameter (codegen::paramKinds)
  unsigned numWarps = 4;
  unsigned sharedBytes = 0;
};

struct Variant {
  std::string signature;
  std::vector<ParamSpec> specs;
  std::vector<Compiled> compiled; ///< one per target
  /// The C conditions the arguments must meet ("(x_ptr & 15) == 0").
  std::vector<std::string> conditions;
};

bool isIdentifier(const std::string &s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
    return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

bool isCKeyword(const std::string &s) {
  static const std::set<std::string> words = {
      "auto",     "break",    "case",     "char",   "const",    "continue", "default",
      "do",       "double",   "else",     "enum",   "extern",   "float",    "for",
      "goto",     "if",       "inline",   "int",    "long",     "register", "restrict",
      "return",   "short",    "signed",   "sizeof", "static",   "struct",   "switch",
      "typedef",  "union",    "unsigned", "void",   "volatile", "while",    "stream",
      "bool",     "true",     "false",    "class",  "new",      "delete",   "template",
      "this",     "operator", "private",  "public", "protected"};
  return words.count(s) || s.rfind("tr_", 0) == 0;
}

/// The C type a runtime parameter of signature type `t` is passed as, or
/// empty when aot cannot pass it.
std::string cTypeOf(const std::string &t) {
  if (!t.empty() && t[0] == '*')
    return "uint64_t";
  static const std::pair<const char *, const char *> table[] = {
      {"i1", "int"},        {"i8", "int8_t"},     {"i16", "int16_t"},
      {"i32", "int32_t"},   {"i64", "int64_t"},   {"u1", "int"},
      {"u8", "uint8_t"},    {"u16", "uint16_t"},  {"u32", "uint32_t"},
      {"u64", "uint64_t"},  {"fp32", "float"},    {"fp64", "double"}};
  for (auto &[sig, c] : table)
    if (t == sig)
      return c;
  return "";
}

std::string readFile(const std::string &path, bool &ok) {
  std::ifstream in(path, std::ios::binary);
  ok = bool(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Splits GRID at top-level commas.
std::vector<std::string> splitGrid(const std::string &grid) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : grid) {
    if (c == '(')
      ++depth;
    if (c == ')')
      --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  out.push_back(cur);
  return out;
}

/// Checks one grid expression: integer literals, parameter names, + - * /
/// % ( ) and spaces. Returns an error message or empty.
std::string checkGridExpr(const std::string &e, const std::set<std::string> &names) {
  std::string trimmed = e;
  trimmed.erase(0, trimmed.find_first_not_of(" \t"));
  if (trimmed.find_first_not_of(" \t") == std::string::npos)
    return "an empty dimension";
  int depth = 0;
  for (size_t i = 0; i < e.size();) {
    char c = e[i];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t j = i;
      while (j < e.size() && (std::isalnum(static_cast<unsigned char>(e[j])) || e[j] == '_'))
        ++j;
      std::string id = e.substr(i, j - i);
      if (!names.count(id))
        return "'" + id + "' is not a parameter of the kernel";
      i = j;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (i < e.size() && std::isdigit(static_cast<unsigned char>(e[i])))
        ++i;
      continue;
    }
    if (c == '(')
      ++depth;
    else if (c == ')' && --depth < 0)
      return "unbalanced ')'";
    else if (!std::strchr("+-*/% \t()", c))
      return std::string("unexpected '") + c + "' (use integers, parameter names, + - * / % and "
                                               "parentheses)";
    ++i;
  }
  if (depth)
    return "unbalanced '('";
  return "";
}

std::string hexBytes(const std::string &bytes) {
  std::string out;
  static const char *digits = "0123456789abcdef";
  for (size_t i = 0; i < bytes.size(); ++i) {
    unsigned char b = static_cast<unsigned char>(bytes[i]);
    out += i % 16 ? " " : "\n   ";
    out += "0x";
    out += digits[b >> 4];
    out += digits[b & 15];
    out += ',';
  }
  return out;
}

std::string archName(unsigned cc) {
  return "sm_" + std::to_string(cc) + (cc >= 90 ? "a" : "");
}

/// The header: the launcher's declaration and what it returns.
std::string header(const AotOptions &o, const std::vector<CParam> &params,
                   const std::vector<Variant> &variants) {
  std::string guard = o.name;
  for (char &c : guard)
    c = char(std::toupper(static_cast<unsigned char>(c)));
  std::ostringstream h;
  h << "/* " << o.name << ".h: kernel '" << o.kernel << "' of " << o.file
    << ", compiled ahead of time by tritium aot. Generated; do not edit. */\n"
    << "#ifndef " << guard << "_H\n#define " << guard << "_H\n\n#include <stdint.h>\n\n"
    << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
    << "/* Launches the kernel on `stream` (a CUstream; NULL: the legacy default\n"
    << "   stream) in the calling thread's current CUDA context, with the grid\n"
    << "   " << o.grid << ".\n"
    << "   Pointers are device pointers (CUdeviceptr). Signatures, most\n"
    << "   specialized first:\n";
  for (auto &v : variants)
    h << "     " << v.signature << "\n";
  h << "   Returns 0, or the failing driver call's CUresult, or -1 when libcuda\n"
    << "   cannot be loaded, -2 when no signature fits the arguments, -3 when no\n"
    << "   cubin suits the device, -4 when no context is current or the grid is\n"
    << "   out of range; " << o.name << "_last_error() says which. */\n"
    << "int " << o.name << "(void *stream";
  for (auto &p : params)
    h << ", " << p.cType << " " << p.name;
  h << ");\n\n"
    << "/* Loads every cubin into the current context now (the first launch\n"
    << "   otherwise does); 0 or an error as above. */\n"
    << "int " << o.name << "_load(void);\n\n"
    << "/* The calling thread's last error, \"\" after a success. */\n"
    << "const char *" << o.name << "_last_error(void);\n\n"
    << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  return h.str();
}

std::string cLiteral(const ParamSpec &s) {
  // Constexprs usable in grid expressions: ints and bools; others are left
  // out (a grid naming them fails to compile, with the C compiler's error).
  const std::string &v = s.value;
  if (v == "True")
    return "1";
  if (v == "False")
    return "0";
  if (!v.empty() && std::all_of(v.begin() + (v[0] == '-'), v.end(),
                                [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return v;
  return "";
}

std::string source(const AotOptions &o, const FunctionDef &fn,
                   const std::vector<CParam> &params, const std::vector<Variant> &variants,
                   const std::vector<unsigned> &ccs) {
  std::ostringstream c;
  c << "/* " << o.name << ".c: kernel '" << o.kernel << "' of " << o.file
    << ", compiled ahead of time by tritium aot for";
  for (unsigned cc : ccs)
    c << " " << archName(cc);
  c << ".\n   Generated; do not edit. Needs only libcuda, loaded on first use. */\n"
    << "#include \"" << o.name << ".h\"\n\n"
    << "#include <dlfcn.h>\n#include <pthread.h>\n#include <stdarg.h>\n"
    << "#include <stddef.h>\n#include <stdio.h>\n\n";
  // The driver API, declared here so that no CUDA header is needed.
  c << "typedef int tr_result;\ntypedef int tr_device;\n"
    << "typedef struct tr_ctx_st *tr_context;\ntypedef struct tr_mod_st *tr_module;\n"
    << "typedef struct tr_fn_st *tr_function;\n\n"
    << "static struct {\n  int state; /* 0 not loaded, 1 loaded, -1 unavailable */\n"
    << "  tr_result (*cuInit)(unsigned);\n"
    << "  tr_result (*cuCtxGetCurrent)(tr_context *);\n"
    << "  tr_result (*cuCtxGetDevice)(tr_device *);\n"
    << "  tr_result (*cuDeviceGetAttribute)(int *, int, tr_device);\n"
    << "  tr_result (*cuModuleLoadData)(tr_module *, const void *);\n"
    << "  tr_result (*cuModuleGetFunction)(tr_function *, tr_module, const char *);\n"
    << "  tr_result (*cuFuncSetAttribute)(tr_function, int, int);\n"
    << "  tr_result (*cuLaunchKernel)(tr_function, unsigned, unsigned, unsigned, unsigned,\n"
    << "                              unsigned, unsigned, unsigned, void *, void **, void **);\n"
    << "  tr_result (*cuGetErrorName)(tr_result, const char **);\n"
    << "} tr_cu;\n\n"
    << "static pthread_mutex_t tr_mutex = PTHREAD_MUTEX_INITIALIZER;\n"
    << "static _Thread_local char tr_error[512];\n\n"
    << "const char *" << o.name << "_last_error(void) { return tr_error; }\n\n"
    << "static int tr_fail(int code, const char *format, ...) {\n"
    << "  va_list args;\n  int n = snprintf(tr_error, sizeof tr_error, \"" << o.name << ": \");\n"
    << "  va_start(args, format);\n"
    << "  vsnprintf(tr_error + n, sizeof tr_error - (size_t)n, format, args);\n"
    << "  va_end(args);\n  return code;\n}\n\n"
    << "static int tr_driver_fail(tr_result r, const char *call) {\n"
    << "  const char *name = NULL;\n"
    << "  if (!tr_cu.cuGetErrorName || tr_cu.cuGetErrorName(r, &name) != 0 || !name)\n"
    << "    name = \"unknown error\";\n"
    << "  return tr_fail(r, \"%s failed: %s (%d)\", call, name, r);\n}\n\n";
  // Loading the driver.
  c << "static int tr_load_driver(void) {\n"
    << "  static const char *names[] = {\"cuInit\", \"cuCtxGetCurrent\", \"cuCtxGetDevice\",\n"
    << "    \"cuDeviceGetAttribute\", \"cuModuleLoadData\", \"cuModuleGetFunction\",\n"
    << "    \"cuFuncSetAttribute\", \"cuLaunchKernel\", \"cuGetErrorName\"};\n"
    << "  void **slots[] = {(void **)&tr_cu.cuInit, (void **)&tr_cu.cuCtxGetCurrent,\n"
    << "    (void **)&tr_cu.cuCtxGetDevice, (void **)&tr_cu.cuDeviceGetAttribute,\n"
    << "    (void **)&tr_cu.cuModuleLoadData, (void **)&tr_cu.cuModuleGetFunction,\n"
    << "    (void **)&tr_cu.cuFuncSetAttribute, (void **)&tr_cu.cuLaunchKernel,\n"
    << "    (void **)&tr_cu.cuGetErrorName};\n"
    << "  int state;\n"
    << "  pthread_mutex_lock(&tr_mutex);\n"
    << "  if (tr_cu.state == 0) {\n"
    << "    void *lib = dlopen(\"libcuda.so.1\", RTLD_NOW | RTLD_LOCAL);\n"
    << "    tr_cu.state = -1;\n"
    << "    if (lib) {\n"
    << "      size_t i;\n"
    << "      for (i = 0; i < sizeof names / sizeof names[0]; ++i)\n"
    << "        if (!(*slots[i] = dlsym(lib, names[i])))\n          break;\n"
    << "      if (i == sizeof names / sizeof names[0])\n        tr_cu.state = 1;\n"
    << "    }\n  }\n"
    << "  state = tr_cu.state;\n"
    << "  pthread_mutex_unlock(&tr_mutex);\n"
    << "  return state == 1 ? 0 : tr_fail(-1, \"cannot load libcuda.so.1 (no NVIDIA driver?)\");\n"
    << "}\n\n";
  // The cubins.
  for (size_t v = 0; v < variants.size(); ++v)
    for (size_t t = 0; t < variants[v].compiled.size(); ++t)
      c << "static const unsigned char tr_cubin_" << v << "_" << t << "[] = {"
        << hexBytes(variants[v].compiled[t].cubin) << "\n};\n\n";
  // Per variant: its cubin for each target and what it needs.
  c << "struct tr_kernel {\n  const unsigned char *cubin;\n  unsigned cc;\n"
    << "  const char *symbol;\n  unsigned threads, shared;\n};\n\n"
    << "static const struct tr_kernel tr_kernels[" << variants.size() << "]["
    << ccs.size() << "] = {\n";
  for (size_t v = 0; v < variants.size(); ++v) {
    c << "  {";
    for (size_t t = 0; t < ccs.size(); ++t) {
      const Compiled &k = variants[v].compiled[t];
      c << (t ? ", " : "") << "{tr_cubin_" << v << "_" << t << ", " << k.cc << ", \""
        << k.symbol << "\", " << k.numWarps * 32 << ", " << k.sharedBytes << "}";
    }
    c << "},\n";
  }
  c << "};\n\n"
    << "/* The loaded function of each variant, and the context it was loaded in. */\n"
    << "static tr_context tr_loaded_ctx[" << variants.size() << "];\n"
    << "static tr_function tr_functions[" << variants.size() << "];\n"
    << "static const struct tr_kernel *tr_chosen[" << variants.size() << "];\n\n";
  // Loading one variant.
  c << "static int tr_load(int v, tr_function *out, const struct tr_kernel **kernel) {\n"
    << "  tr_context ctx = NULL;\n  tr_device dev;\n  tr_result r;\n  int major = 0, minor = 0, cc, t;\n"
    << "  int status = tr_load_driver();\n  if (status)\n    return status;\n"
    << "  if ((r = tr_cu.cuCtxGetCurrent(&ctx)) != 0)\n"
    << "    return tr_driver_fail(r, \"cuCtxGetCurrent\");\n"
    << "  if (!ctx)\n"
    << "    return tr_fail(-4, \"no current CUDA context (make one current first, e.g. with \"\n"
    << "                       \"cuCtxSetCurrent or any CUDA runtime call)\");\n"
    << "  pthread_mutex_lock(&tr_mutex);\n"
    << "  if (tr_loaded_ctx[v] != ctx) {\n"
    << "    const struct tr_kernel *k = NULL;\n    tr_module module;\n    tr_function fn;\n"
    << "    if ((r = tr_cu.cuCtxGetDevice(&dev)) != 0 ||\n"
    << "        (r = tr_cu.cuDeviceGetAttribute(&major, 75, dev)) != 0 ||\n"
    << "        (r = tr_cu.cuDeviceGetAttribute(&minor, 76, dev)) != 0) {\n"
    << "      pthread_mutex_unlock(&tr_mutex);\n"
    << "      return tr_driver_fail(r, \"reading the device's compute capability\");\n    }\n"
    << "    cc = major * 10 + minor;\n"
    << "    /* sm_90a runs on 9.0 only; sm_80 on every 8.x. */\n"
    << "    for (t = 0; t < " << ccs.size() << "; ++t)\n"
    << "      if (tr_kernels[v][t].cc == (unsigned)cc ||\n"
    << "          (tr_kernels[v][t].cc == 80 && major == 8))\n"
    << "        k = &tr_kernels[v][t];\n"
    << "    if (!k) {\n      pthread_mutex_unlock(&tr_mutex);\n"
    << "      return tr_fail(-3, \"no cubin for sm_%d (compiled for";
  for (unsigned cc : ccs)
    c << " " << archName(cc);
  c << ")\", cc);\n    }\n"
    << "    if ((r = tr_cu.cuModuleLoadData(&module, k->cubin)) != 0) {\n"
    << "      pthread_mutex_unlock(&tr_mutex);\n"
    << "      return tr_driver_fail(r, \"cuModuleLoadData\");\n    }\n"
    << "    if ((r = tr_cu.cuModuleGetFunction(&fn, module, k->symbol)) != 0) {\n"
    << "      pthread_mutex_unlock(&tr_mutex);\n"
    << "      return tr_driver_fail(r, \"cuModuleGetFunction\");\n    }\n"
    << "    /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES past the default 48 KiB */\n"
    << "    if (k->shared > 49152 &&\n"
    << "        (r = tr_cu.cuFuncSetAttribute(fn, 8, (int)k->shared)) != 0) {\n"
    << "      pthread_mutex_unlock(&tr_mutex);\n"
    << "      return tr_driver_fail(r, \"cuFuncSetAttribute\");\n    }\n"
    << "    tr_functions[v] = fn;\n    tr_chosen[v] = k;\n    tr_loaded_ctx[v] = ctx;\n  }\n"
    << "  *out = tr_functions[v];\n  *kernel = tr_chosen[v];\n  pthread_mutex_unlock(&tr_mutex);\n  return 0;\n}\n\n";
  c << "int " << o.name << "_load(void) {\n  tr_function fn;\n  const struct tr_kernel *k;\n  int v, status;\n"
    << "  for (v = 0; v < " << variants.size() << "; ++v)\n"
    << "    if ((status = tr_load(v, &fn, &k)) != 0)\n      return status;\n"
    << "  tr_error[0] = 0;\n  return 0;\n}\n\n";
  // The launcher.
  c << "int " << o.name << "(void *stream";
  for (auto &p : params)
    c << ", " << p.cType << " " << p.name;
  c << ") {\n";
  // Constexprs, for the grid expressions.
  const std::vector<ParamSpec> &first = variants[0].specs;
  for (size_t i = 0; i < first.size(); ++i)
    if (first[i].kind == ParamSpec::Constexpr) {
      std::string lit = cLiteral(first[i]);
      if (!lit.empty())
        c << "  const int64_t " << fn.params[i].name << " = " << lit << ";\n";
    }
  std::vector<std::string> dims = splitGrid(o.grid);
  while (dims.size() < 3)
    dims.push_back("1");
  c << "  int64_t tr_grid[3];\n  tr_function tr_fn;\n  const struct tr_kernel *tr_k;\n  int tr_v = -1, tr_status;\n  tr_result tr_r;\n";
  for (size_t d = 0; d < 3; ++d)
    c << "  tr_grid[" << d << "] = (int64_t)(" << dims[d] << ");\n";
  for (size_t i = 0; i < first.size(); ++i)
    if (first[i].kind == ParamSpec::Constexpr && !cLiteral(first[i]).empty())
      c << "  (void)" << fn.params[i].name << ";\n";
  // Dispatch, most specialized first.
  for (size_t v = 0; v < variants.size(); ++v) {
    c << "  " << (v ? "else if (" : "if (");
    if (variants[v].conditions.empty())
      c << "1";
    for (size_t k = 0; k < variants[v].conditions.size(); ++k)
      c << (k ? " && " : "") << variants[v].conditions[k];
    c << ")\n    tr_v = " << v << ";\n";
  }
  c << "  if (tr_v < 0)\n"
    << "    return tr_fail(-2, \"the arguments fit none of the compiled signatures (see "
    << o.name << ".h)\");\n"
    << "  if (tr_grid[0] < 0 || tr_grid[1] < 0 || tr_grid[2] < 0 || tr_grid[0] > 2147483647 ||\n"
    << "      tr_grid[1] > 65535 || tr_grid[2] > 65535)\n"
    << "    return tr_fail(-4, \"grid (%lld, %lld, %lld) is out of range\", (long long)tr_grid[0],\n"
    << "                   (long long)tr_grid[1], (long long)tr_grid[2]);\n"
    << "  if ((tr_status = tr_load(tr_v, &tr_fn, &tr_k)) != 0)\n    return tr_status;\n"
    << "  tr_error[0] = 0;\n"
    << "  if (tr_grid[0] == 0 || tr_grid[1] == 0 || tr_grid[2] == 0)\n"
    << "    return 0; /* an empty grid runs nothing */\n";
  // Per variant: the kernel's parameters (runtime ones not folded as 1).
  c << "  switch (tr_v) {\n";
  for (size_t v = 0; v < variants.size(); ++v) {
    const Variant &var = variants[v];
    c << "  case " << v << ": {\n";
    std::vector<std::string> slots;
    size_t kernelParam = 0, r = 0;
    for (size_t i = 0; i < var.specs.size(); ++i) {
      const ParamSpec &s = var.specs[i];
      if (s.kind != ParamSpec::Runtime)
        continue;
      const CParam &p = params[r++];
      if (s.equalsOne)
        continue;
      char kind = var.compiled[0].kinds[kernelParam++];
      std::string slot = "tr_a" + std::to_string(slots.size());
      static const std::pair<char, const char *> storage[] = {
          {'p', "uint64_t"}, {'b', "uint8_t"}, {'c', "int8_t"},  {'s', "int16_t"},
          {'i', "int32_t"},  {'l', "int64_t"}, {'f', "float"},   {'d', "double"}};
      const char *type = "int64_t";
      for (auto &[k, t] : storage)
        if (k == kind)
          type = t;
      c << "    " << type << " " << slot << " = (" << type << ")"
        << (kind == 'b' ? "(" + p.name + " != 0)" : p.name) << ";\n";
      slots.push_back(slot);
    }
    c << "    void *tr_params[] = {";
    for (size_t k = 0; k < slots.size(); ++k)
      c << (k ? ", " : "") << "&" << slots[k];
    if (slots.empty())
      c << "NULL";
    c << "};\n"
      << "    tr_r = tr_cu.cuLaunchKernel(tr_fn, (unsigned)tr_grid[0], (unsigned)tr_grid[1], "
         "(unsigned)tr_grid[2],\n"
      << "                                tr_k->threads, 1, 1, tr_k->shared, stream, tr_params, NULL);\n"
      << "    break;\n  }\n";
  }
  c << "  default:\n    tr_r = 0;\n  }\n"
    << "  return tr_r ? tr_driver_fail(tr_r, \"cuLaunchKernel(" << o.kernel << ")\") : 0;\n}\n";
  return c.str();
}

} // namespace

int runAot(const AotOptions &o, std::ostream &err) {
  auto fail = [&](const std::string &msg) {
    err << "tritium: error: " << msg << "\n";
    return 1;
  };
  if (!isIdentifier(o.name) || isCKeyword(o.name))
    return fail("--name: '" + o.name + "' is not a C identifier (it names the launcher)");
  if (o.signatures.empty())
    return fail("--signature: give at least one (e.g. \"*fp32:16,*fp32:16,i32,1024\")");
  std::vector<unsigned> ccs;
  for (const std::string &t : o.targets.empty() ? std::vector<std::string>{"cuda:90"}
                                                : o.targets) {
    unsigned cc = codegen::parseCudaTarget(t);
    if (cc != 80 && cc != 90)
      return fail("--target: expected cuda:80 or cuda:90 (got '" + t + "')");
    if (std::find(ccs.begin(), ccs.end(), cc) == ccs.end())
      ccs.push_back(cc);
  }
  bool ok = false;
  std::string text = readFile(o.file, ok);
  if (!ok)
    return fail("cannot open '" + o.file + "'");
  ParseResult parsed = parseSource(o.file, text);
  if (!parsed.errors.empty()) {
    for (auto &d : parsed.errors)
      err << d.render();
    return 1;
  }
  for (auto &[name, diag] : parsed.skippedFunctions)
    if (name == o.kernel) {
      err << diag.render();
      return 1;
    }
  const FunctionDef *fn = nullptr;
  for (auto &f : parsed.module->functions)
    if (f->name == o.kernel)
      fn = f.get();
  if (!fn)
    return fail("no function named '" + o.kernel + "' in " + o.file);

  // The signatures: the same runtime parameters and constexprs in each.
  std::vector<Variant> variants;
  std::vector<CParam> params;
  std::set<std::string> names;
  for (auto &p : fn->params)
    names.insert(p.name);
  for (size_t v = 0; v < o.signatures.size(); ++v) {
    std::string where = "--signature " + std::to_string(v + 1);
    Variant var;
    var.signature = o.signatures[v];
    if (auto e = parseSignature(var.signature, var.specs))
      return fail(where + ": " + *e);
    if (var.specs.size() != fn->params.size())
      return fail(where + ": " + std::to_string(var.specs.size()) + " entries for the " +
                  std::to_string(fn->params.size()) + " parameters of '" + o.kernel + "'");
    for (size_t i = 0; i < var.specs.size(); ++i) {
      const ParamSpec &s = var.specs[i];
      const std::string &pname = fn->params[i].name;
      if (s.kind == ParamSpec::Tuple || s.kind == ParamSpec::Descriptor)
        return fail(where + ": parameter '" + pname + "': aot launchers take pointers and "
                    "scalars (tuples and tensor descriptors are not supported)");
      if (v == 0) {
        if (s.kind != ParamSpec::Runtime)
          continue;
        std::string ct = cTypeOf(s.type);
        if (ct.empty())
          return fail(where + ": parameter '" + pname + "' of type " + s.type +
                      ": aot launchers pass pointers, integers, fp32 and fp64");
        if (isCKeyword(pname))
          return fail("parameter '" + pname + "' is a C keyword; rename it for aot");
        params.push_back({pname, s.type, ct});
        continue;
      }
      const ParamSpec &f = variants[0].specs[i];
      if (s.kind != f.kind || s.type != f.type ||
          (s.kind == ParamSpec::Constexpr && s.value != f.value))
        return fail(where + ": parameter '" + pname + "' is " +
                    (s.kind == ParamSpec::Constexpr ? s.value : s.type) + " here but " +
                    (f.kind == ParamSpec::Constexpr ? f.value : f.type) +
                    " in --signature 1; signatures may differ only in ':16' and ':1'");
    }
    for (size_t i = 0; i < var.specs.size(); ++i) {
      const ParamSpec &s = var.specs[i];
      if (s.kind != ParamSpec::Runtime)
        continue;
      const std::string &pname = fn->params[i].name;
      if (s.equalsOne)
        var.conditions.push_back("(" + pname + " == 1)");
      else if (s.divisibility >= 16)
        var.conditions.push_back(s.type[0] == '*' ? "((" + pname + " & 15) == 0)"
                                                  : "(" + pname + " % 16 == 0)");
    }
    variants.push_back(std::move(var));
  }
  std::vector<std::string> dims = splitGrid(o.grid);
  if (o.grid.empty() || dims.size() > 3)
    return fail("--grid: 1 to 3 comma-separated expressions (e.g. \"(n + 1023) / 1024\")");
  for (size_t d = 0; d < dims.size(); ++d)
    if (std::string e = checkGridExpr(dims[d], names); !e.empty())
      return fail("--grid: dimension " + std::to_string(d + 1) + " '" + dims[d] + "': " + e);

  // Compile each signature for each target.
  for (Variant &var : variants) {
    for (unsigned cc : ccs) {
      mlir::MLIRContext ctx;
      fe::CompileOptions copts;
      copts.numWarps = o.numWarps;
      copts.numStages = o.numStages;
      CompileResult r = compileKernel(ctx, *parsed.module, o.kernel, var.specs, copts);
      if (!r.ok()) {
        for (auto &d : r.errors)
          err << d.render();
        return 1;
      }
      if (auto e = optimizeTileModule(*r.module))
        return fail(*e);
      mlir::func::FuncOp func;
      r.module->walk([&](mlir::func::FuncOp f) {
        if (f.getName() == o.kernel)
          func = f;
      });
      if (!func)
        return fail("internal: kernel '" + o.kernel + "' is not in its compiled module");
      Compiled out;
      out.cc = cc;
      out.kinds = codegen::paramKinds(func);
      codegen::CudaCompileOptions gopts;
      gopts.computeCapability = cc;
      gopts.numWarps = unsigned(o.numWarps);
      gopts.numStages = unsigned(o.numStages);
      codegen::CudaKernelArtifacts art;
      std::string error;
      if (!codegen::compileForCuda(*r.module, o.kernel, gopts, art, error))
        return (err << error << "\n", 1);
      if (art.globalScratchBytes)
        return fail("signature '" + var.signature + "': the kernel makes tensor descriptors "
                    "on the device (global scratch memory), which aot launchers do not "
                    "provide yet");
      size_t expected = 0;
      for (auto &s : var.specs)
        expected += s.kind == ParamSpec::Runtime && !s.equalsOne;
      if (out.kinds.size() != expected || out.kinds.find('?') != std::string::npos)
        return fail("internal: kernel parameters '" + out.kinds + "' do not match the " +
                    std::to_string(expected) + " runtime arguments");
      auto cubin = cuda::assemble(art.ptx, archName(cc));
      if (!cubin)
        return fail(cubin.error().message);
      out.cubin = *cubin;
      out.symbol = art.name;
      out.numWarps = art.numWarps;
      out.sharedBytes = art.sharedBytes;
      var.compiled.push_back(std::move(out));
    }
  }
  // Most specialized first (stable: ties keep the command line's order).
  std::stable_sort(variants.begin(), variants.end(), [](const Variant &a, const Variant &b) {
    return a.conditions.size() > b.conditions.size();
  });

  std::string base = o.outDir.empty() ? o.name : o.outDir + "/" + o.name;
  std::ofstream h(base + ".h"), c(base + ".c");
  if (!h || !c)
    return fail("cannot write " + base + ".h and " + base + ".c");
  h << header(o, params, variants);
  c << source(o, *fn, params, variants, ccs);
  if (!h || !c)
    return fail("cannot write " + base + ".h and " + base + ".c");
  return 0;
}

} // namespace tritium::aot
