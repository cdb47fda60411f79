// common/version.cc — returns the values stamped into version_stamp.h.
#include "common/version.h"

#include "common/version_stamp.h"

namespace xferlab {

const char* xferlab_version() {
  return kXferlabVersion;
}

const char* xferlab_revision() {
  return kXferlabRevision;
}

}  // namespace xferlab
