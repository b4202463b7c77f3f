"""Where a shipped language's dates differ from Django's own format modules
(`FORMAT_MODULE_PATH`): a date is written as the locale writes it on a sheet or a
notice, 26/11/2026 in Ireland, Britain and Spain. Anything not set here (times,
numbers, the first day of the week) is Django's."""
