list(APPEND HT_DATA_TESTS test_decoders)
