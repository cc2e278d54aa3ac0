// A C++ program over the installed nqueens library: a batch of hill-climbing runs and a count,
// each a typed request run where its device says, each report printed as its JSON record.
//
//   engine_requests [cpu|gpu|auto]     (default auto: the GPU where there is one, else the CPU)
//
// Build it against an install (see CMakeLists.txt beside it):
//   cmake -S examples/cpp -B build-example -DCMAKE_PREFIX_PATH=/where/nqueens/is/installed
//   cmake --build build-example && build-example/engine_requests

#include <cstdio>
#include <exception>

#include "nqueens/engine.hpp"
#include "nqueens/error.hpp"

int main(int argc, char** argv) {
  try {
    const nq::device_kind device = nq::parse_device_kind(argc > 1 ? argv[1] : "auto");

    // 1000 runs of steepest-ascent hill climbing on 8 queens: most end in a local minimum,
    // which is what the success rate shows. Run i draws from stream (seed, i) on any device.
    nq::batch_request batch;
    batch.n = 8;
    batch.algorithm.algorithm = nq::local_algorithm::hc;
    batch.settings.runs = 1000;
    batch.settings.seed = 1;
    batch.device.kind = device;
    const nq::batch_report batched = nq::run(batch);
    std::printf("%s\n", nq::to_json(batched).c_str());

    // Every solution of 10 queens (724) and the fundamental ones (92).
    nq::count_request count;
    count.n = 10;
    count.unique = true;
    count.device.kind = device;
    const nq::count_report counted = nq::run(count);
    std::printf("%s\n", nq::to_json(counted).c_str());

    // A request for `auto` that ran on the CPU says why, once the results are out.
    for (const auto* note : {&batched.note, &counted.note})
      if (!note->empty()) std::fprintf(stderr, "engine_requests: %s\n", note->c_str());
    return 0;
  } catch (const nq::usage_error& e) {  // a setting out of range, an unknown device name
    std::fprintf(stderr, "engine_requests: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {  // device_error (no GPU for `gpu`), resource_error
    std::fprintf(stderr, "engine_requests: %s\n", e.what());
    return 1;
  }
}
