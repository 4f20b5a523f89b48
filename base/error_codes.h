// MongoDB's named error codes that ttldb reports: the one list from which
// the MongoCode enum and MongoCodeName (base/status.h) are generated.
//
// Each X(Name, code) is an entry of MongoDB's src/mongo/base/error_codes.yml
// (the name is the reply's "codeName"). DO NOT CHANGE THE VALUES: they are
// MongoDB's. A code without an entry there (an assertion's location code,
// such as 16020 or 51003) is not listed: its codeName is "Location<code>",
// as MongoDB's ErrorCodes::errorString gives it.
#ifndef TTLDB_BASE_ERROR_CODES_H_
#define TTLDB_BASE_ERROR_CODES_H_

#define TTLDB_MONGO_ERROR_CODES(X)                 \
  X(InternalError, 1)                              \
  X(BadValue, 2)                                   \
  X(NoSuchKey, 4)                                  \
  X(GraphContainsCycle, 5)                         \
  X(HostUnreachable, 6)                            \
  X(FailedToParse, 9)                              \
  X(UserNotFound, 11)                              \
  X(Unauthorized, 13)                              \
  X(TypeMismatch, 14)                              \
  X(Overflow, 15)                                  \
  X(InvalidLength, 16)                             \
  X(ProtocolError, 17)                             \
  X(AuthenticationFailed, 18)                      \
  X(IllegalOperation, 20)                          \
  X(InvalidBSON, 22)                               \
  X(NamespaceNotFound, 26)                         \
  X(IndexNotFound, 27)                             \
  X(PathNotViable, 28)                             \
  X(RoleNotFound, 31)                              \
  X(CannotBackfillArray, 34)                       \
  X(ConflictingUpdateOperators, 40)                \
  X(CursorNotFound, 43)                            \
  X(NoMatchingDocument, 47)                        \
  X(NamespaceExists, 48)                           \
  X(MaxTimeMSExpired, 50)                          \
  X(DollarPrefixedFieldName, 52)                   \
  X(InvalidIdField, 53)                            \
  X(NotSingleValueField, 54)                       \
  X(EmptyFieldName, 56)                            \
  X(CommandNotFound, 59)                           \
  X(ImmutableField, 66)                            \
  X(CannotCreateIndex, 67)                         \
  X(InvalidOptions, 72)                            \
  X(InvalidNamespace, 73)                          \
  X(NoReplicationEnabled, 76)                      \
  X(UnknownReplWriteConcern, 79)                   \
  X(IndexOptionsConflict, 85)                      \
  X(IndexKeySpecsConflict, 86)                     \
  X(NetworkTimeout, 89)                            \
  X(ShutdownInProgress, 91)                        \
  X(OperationFailed, 96)                           \
  X(CommandNotSupported, 115)                      \
  X(DocumentValidationFailure, 121)                \
  X(NotAReplicaSet, 123)                           \
  X(CappedPositionLost, 136)                       \
  X(CursorInUse, 143)                              \
  X(ExceededMemoryLimit, 146)                      \
  X(ViewDepthLimitExceeded, 165)                   \
  X(CommandNotSupportedOnView, 166)                \
  X(OptionNotSupportedOnView, 167)                 \
  X(InvalidPipelineOperator, 168)                  \
  X(CannotIndexParallelArrays, 171)                \
  X(AmbiguousIndexKeyPattern, 181)                 \
  X(InvalidIndexSpecificationOption, 197)          \
  X(InvalidUUID, 207)                              \
  X(IllegalOpMsgFlag, 223)                         \
  X(QueryFeatureNotAllowed, 224)                   \
  X(TooManyDocumentSequences, 233)                 \
  X(CursorKilled, 237)                             \
  X(NotImplemented, 238)                           \
  X(IncompatibleCollationVersion, 240)             \
  X(ConversionFailure, 241)                        \
  X(InvalidResumeToken, 260)                       \
  X(TooManyFilesOpen, 264)                         \
  X(IndexBuildAborted, 276)                        \
  X(ChangeStreamFatalError, 280)                   \
  X(ChangeStreamHistoryLost, 286)                  \
  X(ChecksumMismatch, 288)                         \
  X(NoQueryExecutionPlans, 291)                    \
  X(QueryExceededMemoryLimitNoDiskUseAllowed, 292) \
  X(DataCorruptionDetected, 301)                   \
  X(APIVersionError, 322)                          \
  X(MechanismUnavailable, 334)                     \
  X(UnsupportedOpQueryCommand, 352)                \
  X(BSONObjectTooLarge, 10334)                     \
  X(DuplicateKey, 11000)                           \
  X(InterruptedAtShutdown, 11600)                  \
  X(Interrupted, 11601)                            \
  X(DatabaseDifferCase, 13297)                     \
  X(OutOfDiskSpace, 14031)

#endif  // TTLDB_BASE_ERROR_CODES_H_
