import Foundation

/// A decoder of `Data` (RxSwift's `DataDecoder`): what ``ObservableType/decode(type:decoder:)`` takes.
/// `JSONDecoder` and `PropertyListDecoder` conform.
public protocol DataDecoder {
  /// Decodes a value of `type` from `data`; throws what the decoder throws.
  func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
  /// Decodes each value with `decoder` into `type` (RxSwift's `decode(type:decoder:)`), on the thread
  /// that sends it; an error the decoder throws fails the sequence.
  public func decode<Item: Decodable, Decoder: DataDecoder>(
    type: Item.Type, decoder: Decoder
  ) -> Observable<Item> {
    let decode = DecodeFunction<Item>(decoder)
    return map { try decode.run($0) }
  }
}

/// The decoding of a `decode` operator, shared by its subscriptions.
private final class DecodeFunction<Item: Decodable>: @unchecked Sendable {
  // Why @unchecked Sendable: Foundation's decoders keep no state between `decode` calls (their options
  // are set before the operator is made, as RxSwift's `decode` assumes).
  let run: (Data) throws -> Item
  init(_ decoder: some DataDecoder) { run = { try decoder.decode(Item.self, from: $0) } }
}
