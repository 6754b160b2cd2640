// libFuzzer entry points for the regex oracle (see Oracles/FuzzTarget.swift).
import FuzzOracles

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutableRawPointer?) -> CInt {
  FuzzHarness.warmUp(.regex)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzHarness.run(.regex, data, size)
}
