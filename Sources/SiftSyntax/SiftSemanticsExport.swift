// SiftSyntax re-exports SiftSemantics (the value model, the operators and their options, the
// text rules, MATCHES, numbers, the JSON readers): `import SiftSyntax` reaches `SiftValue` and
// every other type that moved there, as before, and so does every file of this module.
@_exported import SiftSemantics
