import TransitionServer

extension AdminGroup {
  /// Looks `name` up in the group database and its members in the user database.
  ///
  /// - Returns: nil when no group has that name (or the database cannot be read).
  public static func resolve(named name: String) -> AdminGroup? {
    guard let entry = UserDatabase.groupEntry(named: name) else { return nil }
    let uids = entry.members.compactMap { UserDatabase.uid(ofUser: $0) }
    return AdminGroup(name: name, gid: entry.gid, memberUIDs: Set(uids))
  }
}
