#pragma once
// The kernel tests' fixture: a test that needs a device is skipped where there is none. Counted
// in SetUp, never at static initialisation: test discovery runs the binaries on machines
// without a GPU. In the host execution (host_kernel_test) there is always one.

#include <gtest/gtest.h>

#include "kernels/gpu.hpp"

namespace nq::test {

/// @brief A test that runs on a CUDA device, skipped without one. The message keeps "no CUDA
/// device": bench/gpu_check.py reads it to tell a blind skip from a deliberate one.
class gpu_fixture : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpu::device_count() == 0)
      GTEST_SKIP() << "no CUDA device (gpu::device_count() is 0); host_kernel_test runs these "
                      "kernels on the CPU";
  }
};

/// @brief gpu_fixture for a parameterised test (TEST_P), as ::testing::TestWithParam is.
template <class Param>
class gpu_param_fixture : public gpu_fixture, public ::testing::WithParamInterface<Param> {};

}  // namespace nq::test
