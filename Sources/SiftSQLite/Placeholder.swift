import SiftSyntax
