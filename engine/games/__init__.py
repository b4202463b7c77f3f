"""The rule sets, one module or package per family of games.

`engine.registry` imports every module here whose name does not start with an underscore
and registers the `RuleSet` objects in its ``RULE_SETS`` tuple. Modules starting with an
underscore are helpers shared by rule sets.
"""
