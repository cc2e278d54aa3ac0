// atomic_file's refusals are judged alike whenever they come: a place the user made unwritable
// is a usage_error (exit 2) as the output opens and as it is put in place at the end (the
// rename once said resource_error, exit 3, for the same fault).

#include "core/atomic_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "nqueens/error.hpp"
#include "scratch.hpp"

namespace nq {
namespace {

TEST(AtomicFile, AFolderGoneBeforeTheEndIsTheUsersToFixAsAtTheStart) {
  test::scratch_dir dir;
  std::filesystem::create_directory(dir / "out");
  const std::string path = (dir / "out" / "board.txt").string();
  atomic_file file(path);
  ASSERT_EQ(::write(file.fd(), "1 2\n", 4), 4);
  // The folder goes, with the temporary in it, before the rename.
  std::filesystem::remove_all(dir / "out");
  EXPECT_THROW(file.commit(), usage_error);
  EXPECT_THROW(atomic_file again(path), usage_error);
}

}  // namespace
}  // namespace nq
