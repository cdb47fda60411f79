"""Shared Bazel definitions: visibility groups that keep dependencies one-way.

hw_model/ and traces/ are used by sim/ and native/; sim/ is used by nothing but
tests and python/ (the Python package); native/ by nothing outside itself (see README's architecture section).
"""

XFERLAB_TEST_VISIBILITY = ["//tests:__pkg__"]

HW_MODEL_USERS = [
    "//hw_model:__pkg__",
    "//sim:__pkg__",
    "//tests:__pkg__",
]

TRACES_USERS = [
    "//traces:__pkg__",
    "//sim:__pkg__",
    "//python:__pkg__",
    "//native:__subpackages__",
    "//tests:__pkg__",
]
