#!/bin/sh
# Harness self-test: a deliberately broken test.
echo "this test is broken on purpose"
exit 1
