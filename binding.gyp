{
  "targets": [
    {
      "target_name": "simhash_zh",
      "sources": [
        "<!@(node -p \"(s => s.core.concat(s.addon).join(' '))(require('./native/sources.json'))\")"
      ],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_CPP_EXCEPTIONS_ALL", "NODE_ADDON_API_DISABLE_DEPRECATED", "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS"],
      # Hidden symbols: only the N-API entry point is exported, so calls inside the addon are
      # direct and can be inlined. Without node's frame pointer the hot loops get one more
      # register (about 3% faster). CMakeLists.txt sets the same for cmake-js.
      "cflags!": ["-fno-exceptions", "-fno-omit-frame-pointer"],
      "cflags_cc!": ["-fno-exceptions", "-std=gnu++17"],
      "cflags_cc": ["-std=c++17", "-O3", "-ffp-contract=off", "-fvisibility=hidden"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "CLANG_CXX_LANGUAGE_STANDARD": "c++17",
        "MACOSX_DEPLOYMENT_TARGET": "10.15",
        "GCC_SYMBOLS_PRIVATE_EXTERN": "YES",
        "OTHER_CFLAGS": ["-ffp-contract=off"]
      },
      "msvs_settings": {
        "VCCLCompilerTool": { "ExceptionHandling": 1, "AdditionalOptions": ["/std:c++17", "/fp:precise"] }
      }
    }
  ]
}
