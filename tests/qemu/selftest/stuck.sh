#!/bin/sh
# Harness self-test: the guest never finishes (longer than the host's bound).
# timeout: 600
sleep 600
