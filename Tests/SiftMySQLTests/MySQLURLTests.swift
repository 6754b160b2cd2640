import SiftMySQL
import SiftTestSupport
import Testing

@Suite struct MySQLURLTests {
  @Test(
    arguments: [
      ("mysql://sift:sift@127.0.0.1:3306/sift", "sift", "sift", "127.0.0.1", 3306, "sift"),
      ("mysql://u@db.example/shop", "u", nil, "db.example", 3306, "shop"),
      ("mariadb://u:p%40ss%3Aword@h:3307/my%20db", "u", "p@ss:word", "h", 3307, "my db"),
      ("mysql://a%2Fb:x@[::1]:3310/d", "a/b", "x", "::1", 3310, "d"),
      ("mysql://u:p@a@host/", "u", "p@a", "host", 3306, nil),
      ("MYSQL://h", "", nil, "h", 3306, nil),
      ("mysql://u:se/cr:e@t?#@h/d", "u", "se/cr:e@t?#", "h", 3306, "d"),
    ] as [(String, String, String?, String, Int, String?)])
  func parses(_ text: String, user: String, password: String?, host: String, port: Int, database: String?) throws {
    let url = try MySQLURL(text)
    #expect(url.user == user)
    #expect(url.password == password)
    #expect(url.host == host)
    #expect(url.port == port)
    #expect(url.database == database)
    #expect(!url.description.contains("sift:sift"))
  }

  @Test(arguments: [
    "postgres://u:secret@h/d", "mysql://u:secret@h:0/d", "mysql://u:secret@h:99999/d", "mysql://u:secret@h:x/d",
    "mysql://u:secret@/d", "mysql://u:secret@h/d/e", "mysql://u:secret@h/d?ssl=1", "u:secret@h/d",
    "mysql://u:secret%zz@h/d", "mysql://u:secret@[::1/d", "mysql://u:secret@h/a%00b",
    "mysql://u:sec/ret@h:x/d", "mysql://u:sec@ret@h/d?x=1", "mysql://u:secret/@h:99999",
  ])
  func refusesWithoutShowingThePassword(_ text: String) {
    let error = expectSiftError(id: "mysql-connection", stage: .sql) { try MySQLURL(text) }
    #expect(error?.message.contains("sec") == false, "\(error?.message ?? "")")
    #expect(error?.message.contains("mysql://USER:PASSWORD@HOST:PORT/DATABASE") == true)
  }

  @Test func descriptionMasksThePassword() throws {
    #expect(try MySQLURL("mysql://me:hunter2@h:1/d").description == "mysql://me:***@h:1/d")
    #expect(try MySQLURL("mysql://h/d").description == "mysql://h:3306/d")
  }

  @Test func anUnreachableServerNamesItWithoutThePassword() {
    // Port 1 on the loopback refuses at once: no wait.
    let error = expectSiftError(id: "mysql-connection", stage: .sql) {
      try MySQLDatabase(
        url: "mysql://me:hunter2@127.0.0.1:1/d", timeouts: MySQLTimeouts(connect: 2, lock: 1, statement: 1))
    }
    #expect(error?.message.contains("127.0.0.1:1") == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("hunter2") == false)
  }
}

extension MySQLURLTests {
  @Test func aNULInTheHostIsRefused() {
    expectSiftError(id: "mysql-connection", stage: .sql) { try MySQLURL("mysql://u@h\u{0}evil/d") }
  }
}

extension MySQLURLTests {
  @Test func aServerThatNeverAnswersIsGivenUpOnAfterTheConnectTimeout() {
    // 10.255.255.1 is not routed: the connect waits for its timeout (or fails at once without a network).
    let e = expectSiftError(id: "mysql-connection", stage: .sql) {
      try MySQLDatabase(
        url: "mysql://u:p@10.255.255.1:3306/d", timeouts: MySQLTimeouts(connect: 1, lock: 1, statement: 1))
    }
    #expect(e?.message.contains("10.255.255.1:3306") == true, "\(e?.message ?? "")")
  }
}
