/// A source location, for failures reported away from the code that caused them.
package struct SourcePlace: Sendable {
  let fileID: String
  let filePath: String
  let line: Int
  let column: Int

  /// The location `fileID`:`line`.
  package init(fileID: String, filePath: String, line: Int, column: Int) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}
