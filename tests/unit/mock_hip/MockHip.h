//===- MockHip.h - what the mock HIP runtime records ------------*- C++ -*-===//
//
// The mock libamdhip64 (MockHip.cpp) simulates AMD GPUs in host memory so
// that the HIP layer (runtime/hip) can be tested on any machine. Besides
// HIP's own entry points it exports the control functions declared here,
// which a test reaches with dlsym on the same library the runtime loaded
// (dlopen of one file returns one handle, so both see the same state).
//
// Code objects for the mock are a 64-byte ELF64 header (machine AMDGPU)
// followed by text, one directive per line:
//
//   mock-hsaco gfx942
//   kernel softmax_kernel params=8,8,4,4 lds=1024 maxthreads=1024 vgprs=32
//
// `params` lists each parameter's size in bytes (what HIP reads from the
// code object's metadata); `lds`, `maxthreads`, `vgprs` and `scratch` are
// what hipFuncGetAttribute reports. A kernel named vector_add with params
// (float *x, float *y, float *out, int n) is executed on launch; a lane
// outside any allocation makes the next hipDeviceSynchronize fail with
// hipErrorIllegalAddress, as a memory fault does on a GPU.
//
// Real code objects (an hsaco as ld.lld links it) load too: their kernels,
// target, parameter sizes and resources come from the AMDGPU metadata note
// (NT_AMDGPU_METADATA, MessagePack), as HIP reads them. Their kernels are
// recorded on launch, never executed.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TESTS_UNIT_MOCK_HIP_MOCKHIP_H
#define TRITIUM_TESTS_UNIT_MOCK_HIP_MOCKHIP_H

enum { kMockHipMaxParams = 16, kMockHipMaxParamBytes = 16 };

/// The arguments of the last hipModuleLaunchKernel that HIP accepted.
struct MockHipLaunch {
  char kernel[64];
  int device; // the calling thread's current device
  unsigned grid[3];
  unsigned block[3];
  unsigned sharedBytes;
  void *stream;
  int numParams;
  unsigned paramSizes[kMockHipMaxParams];
  unsigned char params[kMockHipMaxParams][kMockHipMaxParamBytes];
};

/// Counters over the mock's life since the last reset.
struct MockHipStats {
  int initCalls;
  int modulesLoaded;
  int liveModules;
  int launches;
  int liveAllocations;
  int liveStreams;
};

extern "C" {
/// Forgets all modules, memory, streams, launches and pending failures
/// and simulates `numDevices` GPUs (0, 1 or 2): an AMD Instinct MI300X
/// and an MI300A, both gfx942 with 64 KiB of LDS per block.
void mockHipReset(int numDevices);
/// Copies the last launch to `out`; 0 when there has been none.
int mockHipLastLaunch(MockHipLaunch *out);
void mockHipStats(MockHipStats *out);
/// The next call of the HIP function `name` returns `error` and does
/// nothing else.
void mockHipFailNext(const char *name, int error);
/// The bytes of the code object the last successful hipModuleLoadData
/// loaded (its whole ELF extent); 0 when there has been none. Valid until
/// the next load or reset.
int mockHipLastModuleImage(const void **data, unsigned long *bytes);
/// Device `device` reports `gcnArchName` ("gfx1100") from now until the
/// next reset; for the runtime to see it, before it first opens the device.
void mockHipSetArch(int device, const char *gcnArchName);
}

#endif // TRITIUM_TESTS_UNIT_MOCK_HIP_MOCKHIP_H
