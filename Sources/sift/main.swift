import SiftSyntax
let args = Array(CommandLine.arguments.dropFirst())
for a in args {
  do { let p = try SiftPredicate.parse(a); print(p.predicateFormat); for w in p.warnings { print(DiagnosticRenderer().render(w, in: a)) } }
  catch { print(error) }
}
