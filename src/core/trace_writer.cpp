#include "core/trace_writer.hpp"

#include <cstdio>

namespace nq {
namespace {

bool has_temperature(local_algorithm a) {
  return a == local_algorithm::sa || a == local_algorithm::hc_anneal_p;
}
bool has_fitness(local_algorithm a) {
  return a == local_algorithm::beam || a == local_algorithm::ga;
}

}  // namespace

trace_writer::trace_writer(const std::string& path, local_algorithm algorithm)
    : file_(path), sink_(file_.fd()), algorithm_(algorithm) {
  std::string header = "step,restarts,cost";
  if (algorithm == local_algorithm::sa) header += ",temperature";
  if (algorithm == local_algorithm::hc_anneal_p) header += ",p";
  if (has_fitness(algorithm)) header += ",best_fitness,mean_fitness";
  sink_.write(header + "\n");
}

trace_fn trace_writer::callback() {
  return [this](const trace_row& row) { write(row); };
}

void trace_writer::write(const trace_row& row) {
  sink_.write_number(row.step);
  sink_.write(",");
  sink_.write_number(row.restarts);
  sink_.write(",");
  sink_.write_number(row.cost);
  char extra[64];
  if (has_temperature(algorithm_)) {
    std::snprintf(extra, sizeof extra, ",%.6g", row.temperature);
    sink_.write(extra);
  }
  if (has_fitness(algorithm_)) {
    std::snprintf(extra, sizeof extra, ",%.0f,%.4f", row.best_fitness, row.mean_fitness);
    sink_.write(extra);
  }
  sink_.write("\n");
}

void trace_writer::commit() {
  sink_.flush();
  file_.commit();
}

}  // namespace nq
