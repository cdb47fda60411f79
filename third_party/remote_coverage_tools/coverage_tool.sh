#!/bin/sh
# Coverage collection is not supported in the offline build; `bazel test` only
# needs these targets to exist.
echo "remote_coverage_tools: coverage is not available in the offline build" >&2
exit 1
