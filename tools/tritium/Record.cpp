//===- Record.cpp - tritium run --record and tritium replay ---------------===//
//
// The record's format is runtime/Record.h's. `tritium run --record` writes
// the buffers as parsed, before the launch; those it got as `empty:` stay
// generators, so a replay poisons them again and the uninit sanitizer still
// sees them.
//
//===----------------------------------------------------------------------===//
#include "tools/tritium/RunCommand.h"

#include "runtime/Record.h"

#include <fstream>
#include <iterator>

using namespace tritium::run;

std::optional<std::string> tritium::run::recordLaunch(const RunOptions &o,
                                                      const std::vector<HostValue> &values,
                                                      const std::string &dir) {
  auto fail = [&](const std::string &why) {
    return std::optional<std::string>("--record " + dir + ": " + why);
  };
  if (auto e = rt::makeDirectory(dir))
    return fail(*e);
  rt::RecordedLaunch l;
  {
    std::ifstream in(o.file, std::ios::binary);
    if (!in)
      return fail("cannot read " + o.file);
    l.source.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  l.kernel = o.kernel;
  l.grid = o.grid;
  l.numWarps = o.numWarps;
  l.debug = o.debug;
  l.constexprs = o.constexprs;
  for (const HostValue &v : values) {
    rt::RecordedArg a;
    a.name = v.name;
    switch (v.kind) {
    case HostValue::Buffer:
      if (v.uninitialized) {
        a.literal = std::string("empty:") + v.elem->name + "[";
        for (size_t i = 0; i < v.array.shape.size(); ++i)
          a.literal += (i ? "," : "") + std::to_string(v.array.shape[i]);
        a.literal += "]";
      } else {
        a.array = &v.array;
        a.elem = v.elem->name;
      }
      break;
    case HostValue::Int:
      a.literal = rt::recordedInt(v.i, v.isUnsigned);
      break;
    case HostValue::Float:
      a.literal = rt::recordedFloat(v.f);
      break;
    case HostValue::Bool:
      a.literal = v.i ? "True" : "False";
      break;
    }
    l.args.push_back(std::move(a));
  }
  if (auto e = rt::writeRecord(dir, l))
    return fail(*e);
  return std::nullopt;
}

std::optional<std::string> tritium::run::readRecord(const std::string &dir, RunOptions &o) {
  rt::RecordedLaunch l;
  if (auto e = rt::readRecord(dir, l))
    return e;
  o.file = dir + "/kernel.py";
  o.kernel = l.kernel;
  o.grid = l.grid;
  o.numWarps = l.numWarps;
  o.debug = o.debug || l.debug;
  o.constexprs = l.constexprs;
  for (const rt::RecordedArg &a : l.args)
    o.args.push_back(a.name + "=" + a.literal);
  return std::nullopt;
}
