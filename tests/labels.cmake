list(APPEND HT_DATA_TESTS test_viewer_open)
