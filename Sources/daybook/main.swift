// daybook's entry point: parse, run, and map every failure to the exit-status contract.
import DaybookCore

Daybook.runMain()
