// libFuzzer entry point for the parse oracle (see Oracles/FuzzTarget.swift).
import FuzzOracles

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  FuzzHarness.run(.parse, data, size)
}
