// sim/version.cc — `xferlab --version` text from the build stamp.
#include "common/version.h"

#include "sim/command.h"

namespace xferlab::cli {

std::string version_string() {
  return std::string("xferlab ") + xferlab_version() + " (rev " + xferlab_revision() + ")";
}

std::string source_revision() {
  return xferlab_revision();
}

}  // namespace xferlab::cli
