list(APPEND HT_DATA_TESTS test_flip_reference)
list(APPEND HT_DATA_TESTS test_compare_flip)
list(APPEND HT_DATA_TESTS test_compare_flip_gpu)
