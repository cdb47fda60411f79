// common/version.h — xferlab's version and the source revision it was built
// from, stamped at build time (tools/workspace_status.sh). Used by
// `xferlab --version` and by every trace and result file for provenance.
#pragma once

namespace xferlab {

// xferlab_version: the release version from //:VERSION, e.g. "0.1.0".
const char* xferlab_version();

// xferlab_revision: git revision ("-dirty" when tracked files were modified),
// or "unknown" outside a git checkout.
const char* xferlab_revision();

}  // namespace xferlab
