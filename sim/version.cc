// sim/version.cc — version and source revision stamped at build time.
#include "sim/command.h"
#include "sim/version_stamp.h"

namespace xferlab::cli {

std::string version_string() {
  return std::string("xferlab ") + kXferlabVersion + " (rev " + kXferlabRevision + ")";
}

std::string source_revision() {
  return kXferlabRevision;
}

}  // namespace xferlab::cli
