# The tree's layout: no include cycle between folders, the README's layout
# table true (tests/layout/layout.py; `layout.py --dot` draws the graph).
.PHONY: layout
layout:
	@mkdir -p $(B)/results
	@tests/layout/layout.py > $(B)/results/layout.tap

CHECK_SUITES += layout
