#!/bin/sh
# Harness self-test: a test that outlives its own time limit.
# timeout: 3
sleep 60
