/// The transition contexts the benchmark begins sessions with (JSON text).
enum BenchContexts {
  /// An album-flip push on a phone-sized container: 8 covers, 24 photo cells (role `cell`, so
  /// they are dealt).
  static let albumPush: String = {
    var covers: [String] = []
    for index in 0..<8 {
      let x = 16 + (index % 2) * 187
      let y = 107 + (index / 2) * 230
      covers.append(
        #"{"id":"album-\#(index)","frame":[\#(x),\#(y),171,171],"content":{"image":"album-\#(index).jpg"}}"#
      )
    }
    var cells: [String] = []
    for index in 0..<24 {
      let x = (index % 3) * 131
      let y = 91 + (index / 3) * 131
      cells.append(
        #"{"id":"photo-\#(index)","frame":[\#(x),\#(y),128,128],"role":"cell","content":{"image":"photo-\#(index).jpg"}}"#
      )
    }
    return #"{"operation":"push","container":[390,844],"selected":"album-2","#
      + ##""from":{"background":"#ffffffff","layers":[\##(covers.joined(separator: ","))]},"##
      + ##""to":{"background":"#ffffffff","layers":[\##(cells.joined(separator: ","))]}}"##
  }()

  /// A zoom-present present: a grid of 12 cells, the tapped one zooming into a detail view
  /// of three layers.
  static let zoomPresent: String = {
    var cells: [String] = []
    for index in 0..<12 {
      let x = (index % 3) * 131
      let y = 94 + (index / 3) * 131
      cells.append(
        ##"{"id":"cell-\##(index)","frame":[\##(x),\##(y),128,128],"background":"#e5e5eaff","content":{"image":"library-\##(index).jpg"}}"##
      )
    }
    let detail = [
      ##"{"id":"detail","frame":[0,0,390,844],"background":"#000000ff","content":{"image":"library-5.jpg"}}"##,
      #"{"id":"detail-title","frame":[16,59,358,24],"content":{"text":"12 March"}}"#,
      #"{"id":"detail-close","frame":[330,55,44,32],"content":{"symbol":"xmark"}}"#,
    ]
    return #"{"operation":"present","container":[390,844],"selected":"cell-5","#
      + ##""from":{"background":"#ffffffff","layers":[\##(cells.joined(separator: ","))]},"##
      + ##""to":{"background":"#000000ff","layers":[\##(detail.joined(separator: ","))]}}"##
  }()
}
