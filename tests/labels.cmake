list(APPEND HT_DATA_TESTS test_cli_region)
list(APPEND HT_DATA_TESTS test_cli_views)
