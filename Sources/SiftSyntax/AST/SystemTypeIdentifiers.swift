/// Apple's system-declared uniform type identifiers that `UTI-CONFORMS-TO` and `UTI-EQUALS`
/// know: each public identifier with the identifiers it directly conforms to (the public
/// hierarchy of Apple's "System-Declared Uniform Type Identifiers").
///
/// Identifiers compare exactly as written (Apple's are lower-case). An identifier not in the
/// table conforms only to itself.
///
/// ```swift
/// SystemTypeIdentifiers.conforms("public.png", to: "public.image")   // true
/// SystemTypeIdentifiers.conforms("public.image", to: "public.png")   // false
/// ```
public enum SystemTypeIdentifiers {
  /// Each identifier and the identifiers it directly conforms to.
  public static let parents: [String: [String]] = [
    "public.item": [],
    "public.content": [],
    "public.composite-content": ["public.content"],
    "public.data": ["public.item"],
    "public.directory": ["public.item"],
    "public.folder": ["public.directory"],
    "public.volume": ["public.folder"],
    "com.apple.package": ["public.directory"],
    "com.apple.bundle": ["public.directory"],
    "com.apple.application": ["public.data"],
    "com.apple.application-bundle": ["com.apple.application", "com.apple.bundle", "com.apple.package"],
    "public.executable": ["public.item"],
    "public.symlink": ["public.item"],
    "public.url": ["public.data"],
    "public.file-url": ["public.url"],
    "public.text": ["public.data", "public.content"],
    "public.plain-text": ["public.text"],
    "public.utf8-plain-text": ["public.plain-text"],
    "public.utf16-plain-text": ["public.plain-text"],
    "public.rtf": ["public.text"],
    "public.html": ["public.text"],
    "public.xml": ["public.text"],
    "public.json": ["public.text"],
    "public.comma-separated-values-text": ["public.delimited-values-text"],
    "public.tab-separated-values-text": ["public.delimited-values-text"],
    "public.delimited-values-text": ["public.text"],
    "public.source-code": ["public.plain-text"],
    "public.swift-source": ["public.source-code"],
    "public.c-source": ["public.source-code"],
    "public.c-header": ["public.source-code"],
    "public.objective-c-source": ["public.source-code"],
    "public.script": ["public.source-code"],
    "public.shell-script": ["public.script"],
    "public.python-script": ["public.script"],
    "com.netscape.javascript-source": ["public.source-code", "public.executable"],
    "public.image": ["public.data", "public.content"],
    "public.png": ["public.image"],
    "public.jpeg": ["public.image"],
    "public.tiff": ["public.image"],
    "public.heic": ["public.heif-standard"],
    "public.heif-standard": ["public.image"],
    "com.compuserve.gif": ["public.image"],
    "com.microsoft.bmp": ["public.image"],
    "com.microsoft.ico": ["public.image"],
    "public.svg-image": ["public.image", "public.xml"],
    "org.webmproject.webp": ["public.image"],
    "public.audiovisual-content": ["public.data", "public.content"],
    "public.audio": ["public.audiovisual-content"],
    "public.mp3": ["public.audio"],
    "public.mpeg-4-audio": ["public.mpeg-4", "public.audio"],
    "com.microsoft.waveform-audio": ["public.audio"],
    "public.aiff-audio": ["public.audio"],
    "public.movie": ["public.audiovisual-content"],
    "public.video": ["public.movie"],
    "public.mpeg-4": ["public.movie"],
    "public.mpeg": ["public.movie"],
    "com.apple.quicktime-movie": ["public.movie"],
    "public.avi": ["public.movie"],
    "com.adobe.pdf": ["public.data", "public.composite-content"],
    "public.archive": ["public.data"],
    "public.zip-archive": ["public.archive"],
    "org.gnu.gnu-zip-archive": ["public.archive"],
    "public.tar-archive": ["public.archive"],
    "public.disk-image": ["public.archive"],
    "public.database": ["public.data"],
    "public.spreadsheet": ["public.content"],
    "public.presentation": ["public.composite-content"],
    "public.vcard": ["public.text"],
    "public.calendar-event": ["public.item"],
    "public.font": ["public.data", "public.content"],
  ]

  /// True when `type` is `other` or conforms to it through the table, transitively.
  public static func conforms(_ type: String, to other: String) -> Bool {
    if type == other { return true }
    var seen: Set<String> = [type]
    var pending = [type]
    while let t = pending.popLast() {
      for p in parents[t] ?? [] where seen.insert(p).inserted {
        if p == other { return true }
        pending.append(p)
      }
    }
    return false
  }

  /// Every identifier that conforms to `other` (itself first, the rest sorted): what SQL
  /// compares a column against.
  public static func conforming(to other: String) -> [String] {
    [other] + parents.keys.filter { $0 != other && conforms($0, to: other) }.sorted()
  }
}
