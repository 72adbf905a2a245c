# The fuzz targets (tests/fuzz/fuzz_*.c), built by every build so that a refactor cannot break
# one unseen. Normally each is linked with tests/fuzz/driver.c, a stand-in for libFuzzer, and
# CTest smoke-runs it for seconds (label `fuzz`) on seeds made at test time; scripts/fuzz
# configures a clang build with HT_LIBFUZZER=ON, which links libFuzzer itself instead, for the
# long runs (tests/fuzz/README.md). HT_LIBFUZZER is set in CMakeLists.txt, before the libraries.
# The seeds of the smoke runs: small images of every loader's format.
ht_program(fuzz_make_corpus tests/fuzz/make_corpus.c hdrtone_io m)
# fuzz_icc's: ICC profiles made by lcms2, PNGs and JPEGs with each colour tag.
ht_program(fuzz_make_icc_corpus tests/fuzz/make_icc_corpus.c hdrtone_io)

file(GLOB HT_FUZZ_TARGETS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tests/fuzz/fuzz_*.c)
foreach(src ${HT_FUZZ_TARGETS})
  get_filename_component(name ${src} NAME_WE)
  if(HT_LIBFUZZER)
    ht_program(${name} ${src} hdrtone_io)
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  else()
    ht_program(${name} "${src};tests/fuzz/driver.c" hdrtone_io)
  endif()
  target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR}/tests)
  # The seeds: tev's packets come from test_tev_proto, the colour path's from
  # make_icc_corpus, everything else reads images.
  if(name STREQUAL "fuzz_tev")
    set(seeder $<TARGET_FILE:test_tev_proto> --seeds)
  elseif(name STREQUAL "fuzz_icc")
    set(seeder $<TARGET_FILE:fuzz_make_icc_corpus>)
  else()
    set(seeder $<TARGET_FILE:fuzz_make_corpus>)
  endif()
  if(NOT HT_LIBFUZZER)
    add_test(NAME ${name} COMMAND bash ${CMAKE_SOURCE_DIR}/tests/fuzz/smoke.sh
      $<TARGET_FILE:${name}> ${CMAKE_BINARY_DIR}/fuzz-seeds/${name} ${seeder})
    set_tests_properties(${name} PROPERTIES LABELS fuzz ENVIRONMENT "${HT_TEST_ENV_NOGL}"
      TIMEOUT 120)
  endif()
endforeach()
