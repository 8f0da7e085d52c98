import Foundation

extension HTTPFixture {
  /// The bytes of the recording `file`, confined to `root` as `deps.files` confines its paths,
  /// never a symlink, and at most `maximumBytes` long (checked before reading, and while reading,
  /// so a file that grows meanwhile is refused too).
  static func contents(of file: URL, within root: URL, maximumBytes: Int) throws(HTTPError) -> Data {
    let shown = displayPath(file)
    let rootPath = root.standardizedFileURL.path
    let filePath = file.standardizedFileURL.path
    guard filePath.hasPrefix(rootPath + "/") else {
      throw .badFixture(file: shown, reason: "it is not inside \(rootPath)")
    }
    let resolved: URL
    do {
      resolved = try FilesAccess(root: root).resolve(String(filePath.dropFirst(rootPath.count + 1)))
    } catch {
      throw .badFixture(file: shown, reason: error.description)
    }
    // NB: `deps.files` follows a symlink that stays inside the folder; a recording may not be one
    //     at all, so that what answers a request is the file its name says.
    if (try? FileManager.default.attributesOfItem(atPath: filePath)[.type] as? FileAttributeType) == .typeSymbolicLink {
      throw .badFixture(file: shown, reason: "it is a symlink; a recording is a file of its own")
    }
    let descriptor = open(resolved.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .badFixture(file: shown, reason: String(cString: strerror(errno)))
    }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw .badFixture(file: shown, reason: "it is not a regular file")
    }
    let tooLarge = { (size: Int) in
      HTTPError.badFixture(file: shown, reason: "it has \(size) bytes, over the limit of \(maximumBytes) bytes for a recording here")
    }
    if Int(status.st_size) > maximumBytes { throw tooLarge(Int(status.st_size)) }
    let data: Data
    do {
      data = try handle.read(upToCount: maximumBytes + 1) ?? Data()
    } catch {
      throw .badFixture(file: shown, reason: "\(error)")
    }
    if data.count > maximumBytes { throw tooLarge(data.count) }
    return data
  }
}
